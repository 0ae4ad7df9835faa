package policy

import "strings"

// A file of this machine put into cloud storage where it becomes the
// record others rely on: a database dump (its rows leave the machine), a
// bucket named for backups, masters, archives or production (the object
// there is replaced), or a move (the local copy goes). Build output to
// one's own artifact or site bucket stays allowed; trees to shared
// buckets are external.systems:copy-off-machine's. The words are data
// (policy/remoteops.txt record-bucket-words, dump-exts).

// uploadRecord says why c's upload puts a record in shared storage, ""
// when it does not.
func uploadRecord(e *Env, c *Cmd) string {
	if c.Name == "scp" || c.Name == "rsync" || c.Name == "unison" {
		return ""
	}
	srcs, dst, ok := copyEnds(c)
	if !ok || e.dryRun(c) || c.Has("--dryrun") || !remoteDest(dst) || !strings.Contains(dst, "://") && c.Name != "rclone" {
		return ""
	}
	for _, s := range srcs {
		if remoteDest(s) || s == "-" {
			return "" // a download, or between two remote places
		}
	}
	for _, s := range srcs {
		l := strings.ToLower(s)
		for _, x := range opsWords("dump-exts") {
			if strings.HasSuffix(l, x) {
				return "uploads " + s + ", a database dump, to " + dst
			}
		}
	}
	if anyPos(c, "mv", "move", "moveto") {
		return "moves " + strings.Join(srcs, " ") + " off the machine into " + dst
	}
	b := dst
	if i := strings.Index(b, "://"); i >= 0 {
		b = b[i+3:]
	}
	parts := strings.SplitN(b, "/", 3)
	b = parts[0]
	if len(parts) > 1 && (strings.HasSuffix(b, ".blob.core.windows.net") || strings.HasSuffix(b, ".dfs.core.windows.net")) {
		b = parts[1] // Azure: the container is the bucket ($web serves the static site)
	}
	if replacesNamedObject(c, dst, parts) {
		// s3://www.acme.com/index.html, gs://acme-warehouse/finance/q2.parquet: one
		// object of a bucket serving a site or the shared warehouse replaced
		if strings.Contains(dst, "://") && strings.Contains(b, ".") && !strings.Contains(b, "amazonaws.com") && !strings.Contains(b, "googleapis.com") && !strings.Contains(b, "windows.net") {
			return "replaces " + dst + " with " + strings.Join(srcs, " ") + ", in a bucket named for the site it serves"
		}
		site := opsList("site-bucket-words")
		for _, w := range wordsOf(strings.TrimPrefix(strings.ToLower(strings.TrimSuffix(b, ":")), "$")) {
			if site[w] || site["$"+w] {
				return "replaces " + dst + " with " + strings.Join(srcs, " ") + ", in storage a live site or the shared warehouse reads"
			}
		}
	}
	words := opsList("record-bucket-words")
	for _, w := range wordsOf(strings.ToLower(strings.TrimSuffix(b, ":"))) {
		if words[w] {
			return "puts " + strings.Join(srcs, " ") + " into " + dst + ", storage others restore or publish from"
		}
	}
	return ""
}

func uploadToRecordRule() Rule {
	names := remoteCopyTools()
	return cmdRule("external.systems:upload-to-record", Ask, "A file of this machine put into cloud storage as a record others rely on: a database dump uploaded, a file moved off the machine, or one put in a bucket named for backups, masters, archives or production (aws s3 cp ./app.dump s3://acme-db-backups/…); build output to one's own bucket stays allowed; the words are data (policy/remoteops.txt record-bucket-words, dump-exts)", names,
		func(e *Env, c *Cmd) string {
			if why := uploadRecord(e, c); why != "" {
				return c.Name + " " + why + ": " + c.String()
			}
			return ""
		},
		[]string{"aws s3 cp ./tmp/app.dump s3://acme-db-backups/manual/app-$(date +%F).dump", "aws s3 cp ./out/ep05_master.mov s3://acme-media-masters/ep05/ep05_master.mov",
			"gsutil cp /tmp/orders.sql.gz gs://shop-data/exports/", "aws s3 mv ./report.pdf s3://acme-reports/q3/", "gcloud storage cp build/app.apk gs://acme-release-builds/1.4/"},
		[]string{"aws s3 cp model.pt s3://ml-artifacts/models/model.pt", "aws s3 cp s3://acme-db-backups/app.dump ./tmp/", "aws s3 cp ./tmp/app.dump s3://acme-db-backups/ --dryrun",
			"gsutil cp dist/app.js gs://acme-public-assets/js/", "aws s3 ls s3://acme-media-masters/"})
}

// replacesNamedObject: the upload names the object it replaces (a key
// with a file name, not a prefix ending in /), or is told to overwrite
// (azcopy --overwrite=true); parts are the destination after its scheme,
// split at the first two slashes.
func replacesNamedObject(c *Cmd, dst string, parts []string) bool {
	for _, a := range c.Args {
		if strings.EqualFold(a, "--overwrite=true") {
			return true
		}
	}
	if c.Has("--recursive", "-r", "-R") || anyPos(c, "sync", "rsync", "mirror") || strings.HasSuffix(dst, "/") {
		return false
	}
	key := ""
	if len(parts) >= 2 {
		key = strings.Join(parts[1:], "/")
	}
	last := key[strings.LastIndexByte(key, '/')+1:]
	return strings.Contains(last, ".")
}
