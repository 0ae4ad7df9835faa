package policy

import (
	"strings"
)

// Live data and cluster schemas: an auth provider's users exported from
// any project not named for development (firebase auth:export users.json
// --project dragonquest-live: every user's PII and password hashes), a
// file copied into a bucket named for live players or customers (gsutil
// cp saves/x.json gs://dragonquest-live-player-saves/…: it overwrites a
// real player's data), and a JSON patch that removes from a CRD, a
// namespace or a persistent volume on production (a CRD version removed
// drops every stored object of it). The words are data
// (policy/remoteops.txt credential-export, live-bucket-word).

// crdRemoveKinds are the kinds whose parts a JSON patch "remove" takes
// away with the objects stored under them.
var crdRemoveKinds = map[string]bool{"crd": true, "crds": true, "customresourcedefinition": true, "customresourcedefinitions": true,
	"customresourcedefinition.apiextensions.k8s.io": true, "namespace": true, "namespaces": true, "ns": true,
	"pv": true, "persistentvolume": true, "persistentvolumes": true}

var jsonPatchRemove = re(`"op"\s*:\s*"remove"`)

// bucketCopiers copy files into object storage: program → the verbs that do.
var bucketCopiers = map[string]map[string]bool{"gsutil": {"cp": true, "mv": true, "rsync": true}, "gcloud": {"cp": true, "mv": true, "rsync": true},
	"aws": {"cp": true, "mv": true, "sync": true}, "s3cmd": {"put": true, "sync": true, "cp": true, "mv": true}, "mc": {"cp": true, "mv": true, "mirror": true},
	"rclone": {"copy": true, "copyto": true, "move": true, "moveto": true, "sync": true}, "azcopy": {"copy": true, "cp": true, "sync": true}}

// liveBucket: the destination url names a bucket for live or customers'
// data and none of development.
func liveBucket(u string) string {
	l := strings.ToLower(strings.Trim(u, `"'`))
	i := strings.Index(l, "://")
	if i < 0 {
		return ""
	}
	b := l[i+3:]
	if j := strings.IndexByte(b, '/'); j >= 0 {
		b = b[:j]
	}
	if devName(b) {
		return ""
	}
	words := opsList("live-bucket-word")
	for _, w := range wordsOf(b) {
		if words[w] {
			return b
		}
	}
	return ""
}

// authExportSub: c's subcommand exports an auth provider's accounts
// (auth:export, users:export, export-users).
func authExportSub(c *Cmd) bool {
	export, cred := opsList("export-verb"), opsList("auth-export-word")
	for k, p := range c.Pos {
		if k > 1 {
			break
		}
		ex, cr := false, false
		for _, w := range wordsOf(p) {
			ex = ex || export[w]
			cr = cr || cred[w]
		}
		if ex && cr {
			return true
		}
	}
	return false
}

func liveDataRules() []Rule {
	copiers := make([]string, 0, len(bucketCopiers))
	for n := range bucketCopiers {
		copiers = append(copiers, n)
	}
	return []Rule{
		cmdRule("external.systems:api-prod-wipe", Deny, "An HTTP request by a changing method whose URL ends in a reset, wipe or purge (…/leaderboards/season-12/reset, …/cache/purge) and names a production environment: it erases live data; the words are data (policy/remoteops.txt wipe-path-word)", []string{"curl", "http", "https", "xh", "xhs", "wget", "curlie"},
			func(e *Env, c *Cmd) string {
				if !prodMarker.MatchString(e.F.Command) || onlyHelp(c) || onlyLocalURLs(c) || localOnly(c) {
					return "" // the cheap test first: most requests name no production
				}
				r := e.apiCall(c)
				if r.method == "" && r.body == "" || r.method == "GET" || r.method == "HEAD" || r.method == "OPTIONS" {
					return ""
				}
				words := opsList("wipe-path-word")
				for _, u := range r.urls {
					p := urlPath(u)
					if q := strings.IndexByte(p, '?'); q >= 0 {
						p = p[:q]
					}
					ws := wordsOf(strings.TrimRight(p, "/"))
					if len(ws) == 0 || !words[ws[len(ws)-1]] || !prodMarker.MatchString(u) {
						continue
					}
					return c.Name + " asks " + urlHost(u) + " to " + ws[len(ws)-1] + " on production: " + c.String()
				}
				return ""
			},
			[]string{`curl -X POST -H "Authorization: Basic $UGS_SERVICE_AUTH" "https://leaderboards.services.api.unity.com/v1/projects/p/environments/$UGS_PROD_ENV_ID/leaderboards/season-12-global/reset"`, `curl -X POST https://api.acme.io/prod/cache/purge`, `curl -X POST -H "Authorization: Bearer $T" https://api.acme.io/environments/production/players/wipe`},
			[]string{`curl -X POST -H "Authorization: Basic $UGS_SERVICE_AUTH" "https://leaderboards.services.api.unity.com/v1/projects/p/environments/$UGS_DEV_ENV_ID/leaderboards/season-12-global/reset"`, `curl "https://api.acme.io/prod/leaderboards/s12/reset"`, `curl -X POST http://localhost:8080/prod/reset`}),
		cmdRule("external.systems:auth-export", Ask, "An auth provider's users exported from a project not named for development or tests (firebase auth:export users.json --project x-live): every user's personal data and password hashes; the words are data (policy/remoteops.txt auth-export-word)", opsNames("remote-cli"),
			func(e *Env, c *Cmd) string {
				if onlyHelp(c) || !authExportSub(c) || c.OwnTarget(true) || emulatorEnv(e.F.Command) {
					return ""
				}
				return c.Name + " exports every user's account data: " + c.String()
			},
			[]string{"firebase auth:export users.json --project dragonquest-live", "firebase auth:export users.json", "firebase auth:export u.csv --format=csv --project acme-app"},
			[]string{"firebase auth:export users.json --project dragonquest-dev", "firebase auth:export users.json --project acme-test", "firebase auth:import users.json --help", "firebase firestore:export gs://b --project acme-dev"}),
		cmdRule("external.systems:live-bucket-write", Ask, "A file copied into a bucket named for live, players' or customers' data (gsutil cp x gs://game-live-player-saves/…): it overwrites real users' data; the words are data (policy/remoteops.txt live-bucket-word)", copiers,
			func(e *Env, c *Cmd) string {
				verbs := bucketCopiers[c.Name]
				if onlyHelp(c) || e.dryRun(c) || len(c.Pos) < 2 {
					return ""
				}
				pos := c.Pos
				if c.Name == "aws" || c.Name == "gcloud" {
					if len(pos) < 3 || pos[0] != "s3" && pos[0] != "storage" {
						return ""
					}
					pos = pos[1:]
				}
				if !verbs[pos[0]] {
					return ""
				}
				if b := liveBucket(pos[len(pos)-1]); b != "" {
					return c.Name + " writes into " + b + ", a bucket of live users' data: " + c.String()
				}
				return ""
			},
			[]string{"gsutil cp saves/patched.json gs://dragonquest-live-player-saves/8f3a/save.json", "aws s3 cp fix.json s3://acme-customer-uploads/42/fix.json", "gcloud storage cp a.json gs://game-players/a.json"},
			[]string{"gsutil cp gs://dragonquest-live-player-saves/8f3a/save.json ./save.json", "gsutil cp a.json gs://dragonquest-dev-player-saves/a.json", "aws s3 cp x s3://acme-build-artifacts/x", "gsutil ls gs://dragonquest-live-player-saves"}),
		cmdRule("external.systems:schema-remove", Deny, "A JSON patch that removes from a CRD, a namespace or a persistent volume on production (kubectl --context prod patch crd x --type=json -p '[{\"op\":\"remove\",…}]'): a CRD version removed drops every object stored in it", []string{"kubectl", "oc", "k"},
			func(e *Env, c *Cmd) string {
				if sub(c) != "patch" || len(c.Pos) < 2 || e.dryRun(c) || !jsonPatchRemove.MatchString(e.F.Command) {
					return ""
				}
				kind := strings.ToLower(c.Pos[1])
				if k, _, ok := strings.Cut(kind, "/"); ok {
					kind = k
				}
				if !crdRemoveKinds[kind] {
					return ""
				}
				if m, _ := prodMarkerOf(e, c); m != "" {
					return c.Name + " patch removes from a " + kind + " on production (" + m + "): " + c.String()
				}
				return ""
			},
			[]string{`kubectl --context prod-us-east-1 patch crd widgets.apps.acme.io --type=json -p '[{"op":"remove","path":"/spec/versions/0"}]'`, `kubectl --context production patch ns payments --type json -p '[{"op": "remove", "path": "/spec/finalizers"}]'`, `kubectl --context prod-eu patch pv pvc-123 --type=json -p '[{"op":"remove","path":"/spec/claimRef"}]'`},
			[]string{`kubectl --context prod-us-east-1 get crd widgets.apps.acme.io -o yaml`, `kubectl --context kind-dev patch crd widgets.apps.acme.io --type=json -p '[{"op":"remove","path":"/spec/versions/0"}]'`, `kubectl --context prod-us-east-1 patch crd widgets.apps.acme.io --type=json -p '[{"op":"remove","path":"/spec/versions/0"}]' --dry-run=server`}),
	}
}
