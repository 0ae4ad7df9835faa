package policy

import (
	"net/url"
	"strings"
)

// externalCLIs manage things that live outside the machine: hosted
// databases, storage, secrets, queues, DNS, backups, platforms. A
// destructive verb among their subcommands needs the user, whatever the
// tool (the cloud, kubectl, helm and terraform rules name their own).
var externalCLIs = []string{"bq", "azcopy", "linode-cli", "hcloud", "vultr-cli", "oci", "ibmcloud", "flyctl", "fly", "netlify",
	"railway", "render", "wrangler", "firebase", "supabase", "neonctl", "pscale", "turso", "atlas", "mongocli", "vault", "doppler",
	"op", "infisical", "bw", "mc", "s3cmd", "restic", "borg", "kopia", "argocd", "flux", "eksctl", "kops", "consul", "nomad",
	"etcdctl", "kafka-topics", "kafka-topics.sh", "kafka-consumer-groups", "kafka-consumer-groups.sh", "rabbitmqctl", "rabbitmqadmin",
	"nats", "stripe", "cf", "cloudflared", "sentry-cli", "twilio", "ansible", "az", "gcloud", "aws", "doctl", "heroku", "vercel",
	"gsutil", "gh", "glab", "pulumi", "cdk", "sam", "serverless", "sls", "openstack", "scw", "exoscale", "upcloud", "civo", "tkn", "minio", "rclone", "cargo", "gem", "twine", "dotnet", "nuget", "pip", "pip3", "curl", "http", "https", "xh", "wget"}

// destructiveVerbs are subcommand words that remove what they name.
var destructiveVerbs = []string{"delete", "del", "destroy", "remove", "rm", "rb", "drop", "purge", "terminate", "deregister",
	"uninstall", "wipe", "erase", "truncate", "flush", "flushall", "prune", "forget", "unpublish", "yank", "teardown", "nuke",
	"deprovision", "decommission", "revoke", "disable", "reset", "unsubscribe", "clear", "rdelete"}

func externalVerbRules() []Rule {
	return []Rule{
		cmdRule("external.systems:destructive-verb", Deny, "Deleting, dropping or purging through a CLI of an external system (vault, restic, borg, supabase, firebase, wrangler, kafka-topics --delete, curl -X DELETE…)", externalCLIs,
			func(e *Env, c *Cmd) string {
				// an HTTP client's request is read before the skips: most
				// (curl -s URL) send no DELETE and no statement, and the
				// skips, which only clear a call, cost more
				why := ""
				switch c.Name {
				case "curl", "http", "https", "xh", "wget":
					if why = httpDestroy(e, c); why == "" {
						return ""
					}
				}
				if onlyHelp(c) || c.Has("--help") || localEndpoint(e, c) || ephemeralTargets(c) || planOp(c) || ownDevDestroy(e, c) {
					return "" // an emulator on this machine; a CI run's own resource (pack_test_resources.go); the developer's own dev or sandbox resource (own_dev_destroy.go)
				}
				if c.CloudOp() != nil && (cloudEnvClass(e, c) == "nonprod" || cloudEnvClass(e, c) == "local") {
					return "" // openstack --os-cloud staging … delete: asked by cloud-op-change; --os-cloud devstack: this machine (pack_cloud_envsel.go)
				}
				if why != "" {
					return why // an HTTP client's (httpDestroy)
				}
				switch c.Name {
				case "cargo", "gem", "twine", "dotnet", "nuget", "pip", "pip3":
					// owner: only --remove takes an owner away (cargo owner --list, gem owner NAME only print; --add is a grant)
					if (anyPos(c, "yank", "unpublish") || anyPos(c, "owner") && (c.Has("--remove", "-r") || hasPrefixArg(c, "--remove="))) && !c.Has("--undo") {
						return c.Name + " withdraws a published package: " + c.String()
					}
					return ""
				case "kafka-topics", "kafka-topics.sh", "kafka-consumer-groups", "kafka-consumer-groups.sh":
					// --reset-offsets and --delete-offsets only print the plan
					// unless --execute is given (kafka-consumer-groups' own help)
					if c.Has("--delete") || c.Has("--reset-offsets", "--delete-offsets") && c.Has("--execute") {
						return c.Name + " deletes topics or resets offsets: " + c.String()
					}
					return ""
				}
				if localStoreTarget(c) || devScopedTargets(c) {
					return "" // mc rm local/scratch, firebase --project demo-x: this machine's own server or emulator
				}
				for _, w := range subcommandWords(c) {
					for _, v := range destructiveVerbs {
						if w == v {
							if v == "reset" && c.Name == "supabase" && !c.Has("--linked", "--db-url") && !hasPrefixArg(c, "--db-url=") {
								continue // supabase db reset without --linked resets the local stack
							}
							if v == "reset" && c.Name != "supabase" && c.Name != "neonctl" && c.Name != "pscale" && c.Name != "turso" && c.Name != "heroku" {
								continue
							}
							if v == "disable" && c.Name != "vault" && c.Name != "firebase" {
								continue
							}
							return c.Name + " " + w + " removes something outside this machine: " + c.String()
						}
					}
				}
				return ""
			},
			[]string{"vault kv delete secret/app", "restic forget --prune --keep-last 1", "borg delete ::archive", "supabase db reset --linked", "curl -X DELETE https://api.x.io/v1/users/1", "curl -X DELETE http://localhost:8080/a https://api.x.io/b", "curl -d 'DROP TABLE events' http://ch:8123/", "kafka-topics --bootstrap-server k:9092 --delete --topic orders", "wrangler r2 bucket delete assets", "firebase firestore:delete --all-collections"},
			[]string{"vault kv get secret/app", "restic snapshots", "borg list ::", "supabase start", "curl https://api.x.io/v1/users", "curl -d 'SELECT count() FROM events' http://ch:8123/", "kafka-topics --list", "wrangler deploy", "curl -X DELETE http://localhost:8080/api/items/1", "curl -X DELETE 127.0.0.1:3000/users/5", "bq rm -f -t acme_dev:scratch.tmp_test", "curl -X DELETE 'http://localhost:9200/test-events-*'", "FIRESTORE_EMULATOR_HOST=localhost:8080 firebase firestore:delete --all-collections --project demo-x --force"}),
	}
}

// httpDestroy says why the HTTP client c's request deletes or empties
// data ("" when it does not): an HTTP DELETE to a host that is not this
// machine's or a sandbox's, or a body holding a statement that drops or
// empties a store.
func httpDestroy(e *Env, c *Cmd) string {
	// every marker holds DELETE within one word: a request without the
	// word (ASCII, any case) is not joined and upper-cased at all
	if anyArgDelete(c) && methodDelete(c) && !onlyLocalURLs(c) && !localOnly(c) && !sandboxHosts(e.apiCall(c)) {
		return c.Name + " sends an HTTP DELETE: " + c.String()
	}
	if body := httpBody(c); sqlDrop.MatchString(body) || httpFlush.MatchString(body) {
		return c.Name + " sends a data store a statement that drops or empties data: " + c.String()
	}
	return ""
}

// onlyLocalURLs reports whether every URL c names is on this machine
// (localhost, 127.0.0.1, ::1) and none is a data store's port: a DELETE
// to a dev server the user runs removes nothing outside it, one to a
// local Elasticsearch drops an index.
func onlyLocalURLs(c *Cmd) bool {
	n := 0
	for _, a := range c.Pos {
		a = httpieURL(c, a) // http DELETE :8001/x is localhost
		if strings.Contains(a, "://") || strings.HasPrefix(a, "localhost") || strings.HasPrefix(a, "127.0.0.1") || strings.HasPrefix(a, "[::1]") {
			u := a
			if !strings.Contains(u, "://") {
				u = "http://" + u
			}
			if !localServer(u) || storePort.MatchString(u) {
				return false
			}
			n++
		}
	}
	return n > 0
}

// storePort matches a URL on the port of a data store with an HTTP API
// (Elasticsearch/OpenSearch, Solr, CouchDB, ClickHouse, InfluxDB, Qdrant,
// Neo4j, ArangoDB, webdis, Consul, etcd, Meilisearch, Typesense).
var storePort = re(`^[a-z]+://[^/]*:(9200|9201|8983|5984|8123|8086|6333|7474|8529|7379|8500|2379|7700|8108)(/|$)`)

// httpFlush matches a key-value store's flush sent over HTTP (webdis,
// a REST proxy): /FLUSHALL, "FLUSHDB".
var httpFlush = re(`(?i)(^|[/\s"'])flush(all|db)\b`)

// httpBody is what an HTTP client sends that a data store runs as a
// statement: its request bodies (-d, --data…, --json; @- is the text the
// line pipes in), and its URLs' paths and query strings, decoded.
func httpBody(c *Cmd) string {
	sends := false
	for _, a := range c.Args {
		if strings.HasPrefix(a, "-d") || strings.HasPrefix(a, "--data") || strings.HasPrefix(a, "--json") ||
			strings.Contains(a, "://") && (strings.Contains(a, "?") || strings.Contains(strings.ToLower(a), "flush")) {
			sends = true
			break
		}
	}
	if !sends {
		return "" // a plain GET of a URL with no query: nothing a store runs
	}
	var b strings.Builder
	for i, a := range c.Args {
		v, isData := "", false
		for _, o := range []string{"-d", "--data", "--data-raw", "--data-binary", "--data-urlencode", "--json", "--data-ascii"} {
			switch {
			case a == o && i+1 < len(c.Args):
				v, isData = c.Args[i+1], true
			case strings.HasPrefix(a, o+"=") && strings.HasPrefix(o, "--"):
				v, isData = a[len(o)+1:], true
			case o == "-d" && len(a) > 2 && strings.HasPrefix(a, "-d") && !strings.HasPrefix(a, "--"):
				v, isData = a[2:], true
			}
		}
		switch {
		case isData && (v == "@-" || v == "@/dev/stdin"):
			b.WriteString(c.Heredoc)
		case isData:
			b.WriteString(v)
		case strings.Contains(a, "://") || strings.HasPrefix(a, "localhost:"):
			b.WriteString(a)
		}
		b.WriteByte('\n')
	}
	s := b.String()
	if strings.ContainsAny(s, "%+") {
		if d, err := url.QueryUnescape(strings.ReplaceAll(s, "+", "%20")); err == nil {
			s = d
		}
	}
	return s
}

// subcommandWords are c's positional words before the first option-like
// or path-like one, split on : - _ so apps:destroy and delete-table count.
func subcommandWords(c *Cmd) []string {
	var out []string
	for i, p := range c.Pos {
		if i > 3 || strings.ContainsAny(p, "/.=@") && i > 0 {
			break
		}
		l := strings.ToLower(p)
		out = append(out, l)
		if strings.ContainsAny(l, ":-_") {
			out = append(out, strings.FieldsFunc(l, func(r rune) bool { return r == ':' || r == '-' || r == '_' })...)
		}
	}
	return out
}

// anyArgDelete: a word of c holds DELETE in any ASCII case, or is not
// ASCII (strings.ToUpper maps some other letters to ASCII ones).
func anyArgDelete(c *Cmd) bool {
	for _, a := range c.Args {
		for i := 0; i < len(a); i++ {
			if a[i] >= 0x80 {
				return true
			}
		}
		if len(a) >= 6 && containsFoldLower(a, "delete") {
			return true
		}
	}
	return false
}

// containsFoldLower: ASCII s holds lower-case l in any case.
func containsFoldLower(s, l string) bool {
	for i := 0; i+len(l) <= len(s); i++ {
		j := 0
		for j < len(l) && (s[i+j]|0x20) == l[j] {
			j++
		}
		if j == len(l) {
			return true
		}
	}
	return false
}

// methodDelete reports whether one of c's words is the DELETE method:
// -X DELETE, --request DELETE (the method its own word), -XDELETE,
// --request=DELETE, --method=DELETE, or httpie's bare DELETE. Each word
// is read on its own: a search body ('q=how to delete a post') holds the
// word but sends no DELETE.
func methodDelete(c *Cmd) bool {
	for _, a := range c.Args {
		switch strings.ToUpper(a) {
		case "DELETE", "-XDELETE", "--REQUEST=DELETE", "--METHOD=DELETE":
			return true
		}
	}
	return false
}
