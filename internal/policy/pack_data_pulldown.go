package policy

import (
	"maps"
	"slices"
	"strings"
)

// A credentials file of another host copied to this machine (scp
// web1:/var/www/html/wp-config.php ., rsync web1:/srv/app/.env ./, a
// bucket's .env.production): reading a secret asks. Production's
// records, dumps and logs copied down (aws s3 cp s3://acme-prod-exports/…
// ., scp db-prod:/var/backups/x.sql.gz ./tmp/) are reads: the product's
// policy allows reading production, and blind sets written to it label
// them allow. What leaves the machine afterwards is judged where it
// leaves (core.secrets:dump-off-machine, share-host-send).

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

func prodDataPulldownRule() Rule {
	return cmdRule("external.systems:prod-data-pulldown", Ask, "A credentials file of another host (wp-config.php, .env, a private key) copied to this machine with scp, rsync, sftp or a storage CLI (aws s3 cp/sync, gsutil, gcloud storage, azcopy, rclone, s3cmd, mc): reading a secret asks; production's records, dumps and logs copied down are reads and stay allowed", slices.Sorted(maps.Keys(pulldownProgs)),
		func(e *Env, c *Cmd) string {
			verbs, ok := pulldownProgs[c.Name]
			if !ok || len(c.Pos) < 2 || e.dryRun(c) || onlyHelp(c) {
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
			if len(pos) < 2 || !localMirrorDest(&Cmd{Pos: pos}) && pos[len(pos)-1] != "." && pos[len(pos)-1] != "-" { // -: printed here (aws s3 cp s3://b/.env -)
				return ""
			}
			for _, s := range pos[:len(pos)-1] {
				if !storageSource(s) {
					continue
				}
				if secretFile(s) || envFile(strings.ToLower(s[strings.LastIndexAny(s, "/:")+1:])) {
					return c.Name + " copies " + s + ", a credentials file of another host, to this machine: " + c.String()
				}
			}
			return ""
		},
		[]string{"scp deploy@shop.example.com:/var/www/html/wp-config.php ./tmp/", "rsync -az web1:/srv/app/.env ./", "aws s3 cp s3://acme-prod-config/app/.env.production .", "scp root@web-prod:/home/deploy/.ssh/id_ed25519 /tmp/"},
		[]string{"aws s3 sync s3://acme-prompt-logs-prod/2024/06/ data/raw/", "aws s3 cp s3://acme-prod-db-dumps/latest.sql.gz .", "scp deploy@db-prod:/var/backups/pg/latest.sql.gz ./tmp/", "aws s3 sync s3://prod-static ./static-mirror --delete", "aws s3 sync s3://acme-staging-logs/ data/raw/", "aws s3 ls s3://acme-prod-logs/", "aws s3 cp dist/app.zip s3://acme-prod-logs/",
			"gsutil ls gs://acme-prod-user-uploads/", "scp deploy@web-prod:/etc/nginx/nginx.conf ./tmp/", "aws s3 cp s3://acme-prod-db-dumps/latest.sql.gz . --dryrun", "scp deploy@web-prod-02:/var/log/app/app.log /tmp/web-prod-02.log", "rsync -az web-prod:/var/log/nginx/ ./tmp/nginx-logs/", "rclone copy s3prod:acme-prod-assets/img ./img"})
}
