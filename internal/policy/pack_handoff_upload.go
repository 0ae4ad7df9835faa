package policy

import (
	"path"
	"strings"
)

// Uploads that others receive: a file copied to a bucket or host named
// for a partner, a vendor or a drop box (data handed outside the
// company), or to an application's update feed or download bucket (the
// next auto-update installs it on every user's machine), and an sftp
// batch file, whose commands the line does not show, run against
// another host. The words are data (remoteops.txt handoff-word,
// feed-word, feed-file). A bucket named for development stays the
// developer's own; downloads (a local destination) are reads.

// handoffCopy are the copy subcommands of the object-store CLIs.
var handoffCopy = map[string]map[string]bool{
	"aws":    {"cp": true, "sync": true, "mv": true},
	"gsutil": {"cp": true, "rsync": true, "mv": true},
	"gcloud": {"cp": true, "rsync": true, "mv": true},
	"s3cmd":  {"put": true, "sync": true, "cp": true, "mv": true},
	"mc":     {"cp": true, "mirror": true, "mv": true},
	"rclone": {"copy": true, "sync": true, "move": true, "copyto": true, "moveto": true},
	"azcopy": {"copy": true, "sync": true, "cp": true},
	"s5cmd":  {"cp": true, "sync": true, "mv": true},
}

// handoffDest is the destination of an upload by c ("" when c does not
// upload): the last operand when it names a bucket or a remote.
func handoffDest(c *Cmd) string {
	verbs := handoffCopy[c.Name]
	if verbs == nil || c.DryRun() || len(c.Pos) < 3 {
		return ""
	}
	vi := -1
	for i, p := range c.Pos[:min(3, len(c.Pos))] {
		if verbs[p] {
			vi = i
			break
		}
	}
	if vi < 0 {
		return ""
	}
	ops := c.Pos[vi+1:]
	for len(ops) > 2 && optionBefore(c.Args, ops[len(ops)-1]) {
		ops = ops[:len(ops)-1] // --exclude '*': an option's value, not an operand
	}
	if len(ops) < 2 {
		return ""
	}
	d := ops[len(ops)-1]
	switch {
	case strings.Contains(d, "://"):
		return d
	case c.Name == "rclone" || c.Name == "mc":
		if i := strings.Index(d, ":"); c.Name == "rclone" && i > 0 && !strings.Contains(d[:i], "/") {
			return d
		}
		if c.Name == "mc" && strings.Count(d, "/") >= 1 && !strings.HasPrefix(d, ".") && !strings.HasPrefix(d, "/") && !strings.HasPrefix(d, "~") {
			return d
		}
	}
	return ""
}

// handoffWhy says why an upload to dest reaches others ("" for none).
func handoffWhy(dest string) string {
	u := dest
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	bucket, key, _ := strings.Cut(u, "/")
	if devName(bucket) || isLocalEndpoint(bucket) {
		return ""
	}
	hand, feed, files := opsList("handoff-word"), opsList("feed-word"), opsList("feed-file")
	if files[strings.ToLower(path.Base(strings.TrimSuffix(key, "/")))] && key != "" {
		return "an update feed's manifest (" + path.Base(key) + "): every installed copy reads it"
	}
	for _, w := range wordsOf(bucket) {
		if hand[w] {
			return "a bucket named for a partner or drop box (" + bucket + "): the data is handed outside"
		}
		if feed[w] {
			return "a bucket users download from (" + bucket + "): the next update or download ships it"
		}
	}
	for _, w := range wordsOf(key) {
		if hand[w] {
			return "a partner's or drop box's folder (" + dest + "): the data is handed outside"
		}
	}
	return ""
}

func handoffUploadRules() []Rule {
	names := []string{"sftp", "scp", "rsync"}
	for n := range handoffCopy {
		names = append(names, n)
	}
	return []Rule{
		cmdRule("external.systems:handoff-upload", Ask, "A file uploaded where others receive it: a bucket or folder named for a partner, vendor or drop box (data handed outside), an application's update feed or download bucket (every installed copy takes it), or an sftp batch file the line does not show run against another host; the words are data (policy/remoteops.txt handoff-word, feed-word, feed-file)", names,
			func(e *Env, c *Cmd) string {
				if onlyHelp(c) || e.dryRun(c) {
					return ""
				}
				if c.Name == "sftp" {
					if b := optValue(c, "-b"); b != "" && b != "-" && b != "/dev/null" && strings.TrimSpace(c.Heredoc) == "" && len(c.Pos) > 0 && !isLocalEndpoint(sshHostOf(c.Pos[len(c.Pos)-1])) {
						return "sftp runs the batch file " + b + " (commands the line does not show) against " + c.Pos[len(c.Pos)-1]
					}
					return ""
				}
				if c.Name == "scp" || c.Name == "rsync" {
					if len(c.Pos) < 2 || e.dryRun(c) {
						return ""
					}
					d := c.Pos[len(c.Pos)-1]
					i := strings.Index(d, ":")
					if i <= 0 || strings.Contains(d[:i], "/") || strings.Contains(d, "://") {
						return ""
					}
					h := sshHostOf(d)
					for _, w := range wordsOf(h) {
						if opsList("handoff-word")[w] {
							return c.Name + " copies to a partner's or vendor's host (" + h + "): the data is handed outside: " + short80(c.String())
						}
					}
					if isLocalEndpoint(h) {
						return ""
					}
					dir := strings.Trim(d[i+1:], `"'`)
					if !strings.HasPrefix(dir, "/") {
						return "" // ~/incoming/, inbox/: a folder in the login's own home there
					}
					for _, w := range wordsOf(dir) {
						if opsList("drop-dir")[w] {
							return c.Name + " copies into " + dir + " on " + h + ", a drop folder another party or machine takes files from: " + short80(c.String())
						}
					}
					return ""
				}
				d := handoffDest(c)
				if d == "" {
					return ""
				}
				if why := handoffWhy(d); why != "" {
					return c.Name + " uploads to " + why + ": " + short80(c.String())
				}
				return ""
			},
			[]string{"sftp -b batch/upload.txt user@sftp.partner.org", "aws s3 cp exports/deid_2024.parquet s3://meridian-partner-dropbox/x/", "aws s3 cp dist/latest.yml s3://app-updates/stable/latest.yml",
				"aws s3 sync dist/ s3://app-updates/beta/ --exclude '*' --include '*.yml'", "gsutil cp out/claims.csv gs://acme-vendor-exchange/in/", "rclone copy exports/ partner-sftp:incoming/", "scp exports/claims.csv acme@sftp.vendor-exchange.com:/in/", "scp out/permits.csv reports@sftp.city.gov:/incoming/", "scp build/modem.cfg prov@tftp02:/tftpboot/"},
			[]string{"aws s3 cp build/x s3://my-dev-bucket/", "aws s3 cp s3://app-updates/stable/latest.yml .", "aws s3 sync dist/ s3://app-updates-dev/beta/", "sftp user@sftp.partner.org", "aws s3 ls s3://meridian-partner-dropbox/", "aws s3 cp dist/app.js s3://acme-assets/js/", "sftp -b batch.txt localhost", "scp dist/app.tar.gz deploy@203.0.113.17:/srv/", "scp out/x.csv localhost:/incoming/", "scp reports@sftp.city.gov:/incoming/ack.txt ."}),
	}
}

// hostOf: the host of user@host:path.
func sshHostOf(s string) string {
	if i := strings.LastIndex(s, "@"); i >= 0 {
		s = s[i+1:]
	}
	h, _, _ := strings.Cut(s, ":")
	return h
}
