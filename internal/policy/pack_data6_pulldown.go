package policy

import (
	"maps"
	"slices"
	"strings"
)

// Production's records pulled down to this machine: a bucket, a
// container or a server path named for production and for data
// (dumps, exports, users' uploads, customers…) copied here with the
// storage CLIs (aws s3 cp/sync, gsutil, gcloud storage, azcopy, rclone,
// s3cmd, mc) or scp/rsync/sftp, and a credentials file copied here from
// another host (scp web1:/var/www/html/wp-config.php .). Production's
// static files (s3://prod-static → ./mirror) and a server's log files
// (scp web-prod:/var/log/app.log /tmp/: a read) stay allowed; the words are
// data (policy/remoteops.txt prod-data-words, pii-words).

// pulldownProgs copy from remote storage; each with the verbs that copy.
var pulldownProgs = map[string][]string{
	"aws": {"cp", "sync", "mv"}, "gsutil": {"cp", "rsync", "mv"}, "gcloud": {"cp", "rsync", "mv"},
	"azcopy": {"copy", "sync", "cp"}, "rclone": {"copy", "sync", "copyto", "move", "moveto", "bisync"},
	"s3cmd": {"get", "sync", "cp"}, "mc": {"cp", "mirror"}, "scp": nil, "rsync": nil, "sftp": nil,
}

// storageSource: s names a place on another machine (s3://, gs://, an
// https blob URL, host:path, rclone's remote:path).
func storageSource(s string) bool {
	if i := strings.Index(s, "://"); i > 0 {
		return !strings.HasPrefix(s, "file://")
	}
	i := strings.Index(s, ":")
	return i > 0 && !strings.Contains(s[:i], "/") && !(i == 1 && len(s) > 2 && (s[2] == '\\' || s[2] == '/'))
}

// recordWords: a name's words that say it holds records (dumps,
// exports, customers), or "".
func recordWords(s string) string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return (r < 'a' || r > 'z') && (r < '0' || r > '9') })
	for _, w := range f {
		if opsList("prod-data-words")[w] || opsList("pii-words")[w] {
			return w
		}
	}
	return ""
}

func data6PulldownRule() Rule {
	return cmdRule("external.systems:prod-data-pulldown", Ask, "Production's records copied to this machine: a bucket, container or server path named for production and for data (dumps, exports, uploads, customers) pulled down with aws s3 cp/sync, gsutil, gcloud storage, azcopy, rclone, s3cmd, mc, scp or rsync, or a credentials file (wp-config.php, .env) copied here from another host; production's static files stay allowed (policy/remoteops.txt prod-data-words)", slices.Sorted(maps.Keys(pulldownProgs)),
		func(e *Env, c *Cmd) string {
			verbs, ok := pulldownProgs[c.Name]
			if !ok || len(c.Pos) < 2 || c.DryRun() || onlyHelp(c) {
				return ""
			}
			pos := c.Pos
			if verbs != nil {
				i := -1
				for j, p := range pos[:min(len(pos), 3)] {
					for _, v := range verbs {
						if strings.EqualFold(p, v) {
							i = j
						}
					}
				}
				if i < 0 {
					return ""
				}
				pos = pos[i+1:]
				if len(pos) == 1 && c.Name == "s3cmd" {
					pos = append(pos, ".") // s3cmd get s3://b/k: into the working directory
				}
			}
			if len(pos) < 2 || !localMirrorDest(&Cmd{Pos: pos}) && pos[len(pos)-1] != "." {
				return ""
			}
			for _, s := range pos[:len(pos)-1] {
				if !storageSource(s) {
					continue
				}
				if secretFile(s) || envFile(strings.ToLower(s[strings.LastIndexAny(s, "/:")+1:])) {
					return c.Name + " copies " + s + ", a credentials file of another host, to this machine: " + c.String()
				}
				if !prodWord.MatchString(s) {
					continue
				}
				words := s
				if !strings.Contains(s, "://") {
					words = s[strings.Index(s, ":")+1:] // host:path: the path says what it holds, the host's name (db-prod) says only where
				}
				if w := recordWords(words); w != "" || dumpFile(s) {
					return c.Name + " copies production's records (" + s + ") to this machine: " + c.String()
				}
			}
			return ""
		},
		[]string{"aws s3 sync s3://acme-prompt-logs-prod/2024/06/ data/raw/", "aws s3 cp s3://acme-prod-db-dumps/latest.sql.gz .", "gsutil -m cp -r gs://acme-prod-user-uploads/2024 ./uploads",
			"gcloud storage cp gs://analytics-prod/events/x.parquet data/", "rclone copy s3prod:acme-prod-exports/app ./exports", "scp deploy@db-prod:/var/backups/pg/latest.sql.gz ./tmp/",
			"s3cmd get s3://acme-prod-backups/db.sql.gz", "scp deploy@shop.example.com:/var/www/html/wp-config.php ./tmp/", "rsync -az web1:/srv/app/.env ./"},
		[]string{"aws s3 sync s3://prod-static ./static-mirror --delete", "aws s3 sync s3://acme-staging-logs/ data/raw/", "aws s3 ls s3://acme-prod-logs/", "aws s3 cp dist/app.zip s3://acme-prod-logs/",
			"gsutil ls gs://acme-prod-user-uploads/", "scp deploy@web-prod:/etc/nginx/nginx.conf ./tmp/", "aws s3 cp s3://acme-prod-db-dumps/latest.sql.gz . --dryrun", "scp deploy@web-prod-02:/var/log/app/app.log /tmp/web-prod-02.log", "rsync -az web-prod:/var/log/nginx/ ./tmp/nginx-logs/", "rclone copy s3prod:acme-prod-assets/img ./img"})
}
