package policy

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// shared environments other than production, load against
// real hosts, and project scripts named for a change given a remote host.
//
// A staging, UAT or pre-production environment is shared: others test on
// it, and its data outlives the session. A change aimed at one by the
// same markers production's rules read (DATABASE_URL=$STAGING_DATABASE_URL,
// --env staging, npm run seed:staging) asks as production's does; reads,
// builds and tests stay allowed. The line is read with the shared word
// put for production's, so every marker production's rules know counts.

// sharedEnvWord: a shared pre-production environment's name standing as
// a word (staging, stg, uat, preprod; $STAGING_DATABASE_URL).
var sharedEnvWord = re(`(?i)(^|[^a-z])(staging|stg|uat|preprod|pre-prod)([^a-z]|$)`)

// sharedTaskWord is sharedEnvWord with "stage" too, for task names only
// (seed:stage): elsewhere stage is a verb (git stage, dvc stage add).
var sharedTaskWord = re(`(?i)(^|[^a-z])(staging|stage|stg|uat|preprod|pre-prod)([^a-z]|$)`)

// mayNameShared: the cheap test before any other work: the line has
// "stag", "stg", "uat" or "preprod" in some case.
func mayNameShared(line string) bool {
	for i := 0; i+3 <= len(line); i++ {
		switch line[i] | 0x20 {
		case 's':
			if line[i+1]|0x20 == 't' && (line[i+2]|0x20 == 'g' || i+4 <= len(line) && line[i+2]|0x20 == 'a' && line[i+3]|0x20 == 'g') {
				return true
			}
		case 'u':
			if line[i+1]|0x20 == 'a' && line[i+2]|0x20 == 't' {
				return true
			}
		case 'p':
			if i+7 <= len(line) && strings.EqualFold(line[i:i+3], "pre") && (line[i+3]|0x20 == 'p' || line[i+3] == '-') {
				return true
			}
		}
	}
	return false
}

// asProd is e and c with each shared environment's name put for
// production's, nil when none stands as a word.
func asProd(e *Env, c *Cmd, w *lazyRE) (*Env, *Cmd) {
	if !w.MatchString(e.F.Command) {
		return nil, nil
	}
	sub := func(s string) string {
		if !w.MatchString(s) {
			return s
		}
		return w.ReplaceAllString(w.ReplaceAllString(s, "${1}prod${3}"), "${1}prod${3}")
	}
	f := *e.F
	f.Command = sub(f.Command)
	c2 := *c
	c2.Args = make([]string, len(c.Args))
	for i, a := range c.Args {
		c2.Args[i] = sub(a)
	}
	c2.Pos = make([]string, len(c.Pos))
	for i, a := range c.Pos {
		c2.Pos[i] = sub(a)
	}
	c2.Remote = sub(c.Remote)
	return &Env{F: &f, Opts: e.Opts, ctx: e.ctx, git: e.git, gitBranch: e.gitBranch, branch: e.branch}, &c2
}

// sharedEnvAssign is the VAR=value on the line whose variable picks a
// connection (remoteops.txt prod-env, *_HOST, *_URL) and whose value
// names a shared environment (DATABASE_URL=$STAGING_DATABASE_URL,
// PGHOST=db.uat.acme.io), "" for none. Options and resources named for
// staging (-a shop-staging, -n staging) are left to the remote CLIs'
// own rules: a staging app's console is the team's everyday place.
func sharedEnvAssign(line string) string {
	conn := opsList("prod-env")
	for _, m := range envAssign.FindAllStringSubmatch(line, -1) {
		k, v := m[1], strings.Trim(m[2], `"'`)
		if (conn[k] || strings.HasSuffix(k, "_HOST") || strings.HasSuffix(k, "_URL") && !strings.Contains(k, "WEBHOOK")) && sharedEnvWord.MatchString(v) {
			return k + "=" + v
		}
	}
	return ""
}

func sharedEnvRules() []Rule {
	names := dedupe(append(opsNames("remote-cli", "runner-cli", "export-prog"), taskRunnerNames()...))
	return []Rule{
		cmdRule("external.systems:shared-env-change", Ask, "A change aimed at a shared staging, UAT or pre-production environment by the markers production's rules read (DATABASE_URL=$STAGING_DATABASE_URL npx prisma migrate deploy, npm run seed:staging, wrangler deploy --env staging): others work on it and its data outlives the session; reads, builds and tests stay allowed", names,
			func(e *Env, c *Cmd) string {
				if !mayNameShared(e.F.Command) || mayNameProd(e.F.Command) && prodWord.MatchString(e.F.Command) {
					return "" // no shared word, or production's own rules judge the line
				}
				if onlyHelp(c) || e.dryRun(c) || callfacts.IsShell(c.Name) && c.Payload != "" && !callfacts.UnknownValue(c.Payload) {
					return ""
				}
				if m := sharedEnvAssign(e.F.Command); m != "" {
					if act := prodAction(e, c); act == "change" || act == "destroy" {
						return c.Name + " changes the shared environment " + m + " names: " + c.String()
					}
				}
				if _, ok := runnerForms()[c.Name]; ok {
					if e2, c2 := asProd(e, c, sharedTaskWord); e2 != nil {
						if r := prodTaskHit(e2, c2); r != "" {
							return c.Name + " runs a task named for a change to a shared environment: " + c.String()
						}
					}
				}
				return ""
			},
			[]string{"DATABASE_URL=$STAGING_DATABASE_URL npx prisma migrate deploy", "npm run seed:staging", "yarn db:reset:uat", "make migrate-stage", "PGHOST=db.staging.acme.io npm run db:migrate", "REDIS_URL=redis://cache.staging.acme.io:6379 npm run cache:flush"},
			[]string{"npm run build:staging", "npx prisma migrate status", "DATABASE_URL=$STAGING_DATABASE_URL npx prisma migrate status", "npm run test:staging", "make deploy-dev", "git stage src/a.go", "kubectl get pods -n staging", "heroku logs -a shop-staging"}),
		loadTestRule(),
	}
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	out := s[:0]
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// loadTestRule: a load generator pointed at a host that is not this
// machine's, with more than a smoke test's users or requests: it loads a
// real service others use (and can take it down). The tools and their
// count options are data (remoteops.txt load-tool, load-count-opt,
// load-default-big).
func loadTestRule() Rule {
	return cmdRule("external.systems:load-test", Ask, "A load test at a host that is not this machine's, with more than a smoke test's users or requests (k6 run --vus 500 … -e BASE_URL=https://app.example.io, hey -n 100000 -c 200 https://…, locust --headless -u 1000 -H https://…): it loads a service others use; localhost, compose services and one-user smoke runs stay allowed; the tools are data (policy/remoteops.txt load-tool)", opsNames("load-tool"),
		func(e *Env, c *Cmd) string {
			if slicesHas(c.Args, "--help") || len(c.Args) == 1 && (c.Args[0] == "-h" || c.Args[0] == "help") { // the flags are not read: jmeter -Jhost=… splits into -h; -n is a count to ab and hey, the non-GUI mode to jmeter
				return ""
			}
			switch c.Name {
			case "k6":
				if s := c.Sub(0); s != "run" && s != "cloud" {
					return ""
				}
			case "locust":
				if !c.Has("--headless") {
					return "" // the web UI: nothing runs until someone starts it
				}
			case "jmeter":
				if !c.Has("-n", "--nongui") {
					return ""
				}
			case "artillery":
				if s := c.Sub(0); s != "run" && s != "quick" && s != "run-fargate" && s != "run-lambda" {
					return ""
				}
			case "vegeta":
				if c.Sub(0) != "attack" {
					return ""
				}
			}
			host := remoteLoadHost(e.F.Command + " " + c.Heredoc)
			if host == "" || !loadBig(c) {
				return ""
			}
			return c.Name + " loads " + host + ", a host others use: " + c.String()
		},
		[]string{"k6 run --vus 500 --duration 10m loadtests/checkout.js -e BASE_URL=https://app.shopflow.io", "hey -n 100000 -c 200 https://api.shopflow.io/health", "locust -f locustfile.py --headless -u 1000 -r 50 -H https://staging.acme.io", "wrk -t8 -c400 -d60s https://www.acme.com/", "ab -n 50000 -c 100 https://acme.com/", "echo 'GET https://api.acme.io/v1/items' | vegeta attack -rate=500 -duration=5m"},
		[]string{"k6 run loadtests/checkout.js -e BASE_URL=http://localhost:3000", "k6 run --vus 1 --iterations 1 loadtests/smoke.js -e BASE_URL=https://app.shopflow.io", "hey -n 1000 -c 50 http://127.0.0.1:8080/", "locust -f locustfile.py -H https://app.acme.io", "wrk -t2 -c10 -d10s http://api:8080/", "ab -n 5 -c 1 https://acme.com/", "k6 inspect script.js"})
}

// remoteLoadHost is the first URL host on the line that is not this
// machine, a compose service (no dot) or a test or example domain.
func remoteLoadHost(line string) string {
	for off := 0; ; {
		i := strings.Index(line[off:], "://")
		if i < 0 {
			return ""
		}
		i += off
		off = i + 3
		j := i
		for j > 0 && line[j-1] != ' ' && line[j-1] != '=' && line[j-1] != '"' && line[j-1] != '\'' {
			j--
		}
		k := strings.IndexAny(line[off:], " \"'\n;|&)")
		end := len(line)
		if k >= 0 {
			end = off + k
		}
		u, err := url.Parse(line[j:end])
		if err != nil {
			continue
		}
		h := strings.ToLower(u.Hostname())
		if h == "" || strings.Contains(h, "$") || !strings.Contains(h, ".") || callfacts.LocalHost(h) || localName(h) || labHost(h) {
			continue
		}
		if strings.HasSuffix(h, ".test") || strings.HasSuffix(h, ".example") || strings.HasSuffix(h, ".invalid") || strings.HasSuffix(h, "example.com") || strings.HasSuffix(h, ".lan") || strings.HasSuffix(h, ".home.arpa") {
			continue
		}
		return h
	}
}

// loadBig: a count option (users, connections, requests, rate) above a
// smoke test's, or none given to a tool whose default is already a load.
func loadBig(c *Cmd) bool {
	opts := opsList("load-count-opt")
	seen := false
	for i, a := range c.Args {
		if !strings.HasPrefix(a, "-") {
			continue
		}
		k, v, has := strings.Cut(a, "=")
		if !opts[k] && len(a) > 2 && a[1] != '-' && opts[a[:2]] {
			k, v, has = a[:2], a[2:], true // wrk -c400
		}
		if !opts[k] {
			continue
		}
		if !has && i+1 < len(c.Args) {
			v = c.Args[i+1]
		}
		n := 0
		for n < len(v) && v[n] >= '0' && v[n] <= '9' {
			n++
		}
		if n == 0 {
			continue
		}
		seen = true
		if x, err := strconv.Atoi(v[:n]); err == nil && x > 10 {
			return true
		}
	}
	return !seen && opsList("load-default-big")[c.Name]
}
