package policy

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Production as a target. A command aimed at production says so: an
// environment variable picking the connection (PGHOST=db.prod…,
// AWS_PROFILE=prod-admin), an option picking the app, project, context
// or environment (-a acme-prod, --project acme-prod, --env production,
// -f docker-compose.prod.yml), a flag for live mode (--live), or, for a
// remote service's CLI, a resource named for production (payments-prod).
// Against production, what changes asks, what destroys is denied, and
// what reads stays allowed — but a copy of production's data to a file
// here asks, and a change that rewrites or disrupts production (a
// restore over it, down -v, a load test) is denied (prod_rewrite.go).
// The words are data (remoteops.txt).

// prodWord: a name for production (prod, production, prd) standing as a
// word: prod-pg, acme-prod, db.prod.internal, docker-compose.prod.yml.
var prodWord = re(`(?i)(^|[^a-z])(prod|production|prd)([^a-z]|$)`)

// envAssign matches VAR=value on the line (a prefix assignment, export, a
// make variable).
var envAssign = re(`(?:^|[\s;&|(])([A-Z][A-Z0-9_]*)=("[^"]*"|'[^']*'|[^\s;&|)]*)`)

// prodVar: a variable named for production ($PROD_MONGO_URI, $DB_PROD).
var prodVar = re(`\$\{?[A-Z0-9_]*(PROD|PRODUCTION)[A-Z0-9_]*`)

// prodMarkerOf says what names production as c's target, "" when nothing
// does. hosted is set when only a flag for the hosted service (--linked,
// --remote) names it.
func prodMarkerOf(e *Env, c *Cmd) (why string, hosted bool) {
	if !mayNameProd(e.F.Command) {
		return "", false // the everyday command: no word for production on the line
	}
	remoteCLI := opsList("remote-cli")[c.Name]
	runner := opsList("runner-cli")[c.Name]
	modeOK := remoteCLI || opsList("mode-runner")[c.Name]
	// environment assignments on the line, and KEY=VALUE arguments
	conn, mode := opsList("prod-env"), opsList("prod-mode-env")
	for _, m := range envAssign.FindAllStringSubmatch(e.F.Command, -1) {
		k, v := m[1], strings.Trim(m[2], `"'`)
		if (conn[k] || modeOK && mode[k] || strings.HasSuffix(k, "_HOST") || strings.HasSuffix(k, "_URL") && !strings.Contains(k, "WEBHOOK")) && prodWord.MatchString(v) {
			return k + "=" + v, false
		}
	}
	if !remoteCLI && !runner && !opsList("export-prog")[c.Name] {
		return "", false
	}
	for _, a := range c.Args {
		if m := prodVar.FindString(a); m != "" {
			return m, false
		}
	}
	if c.Remote != "" && prodWord.MatchString(c.Remote) {
		return c.Remote, false
	}
	for _, a := range c.Args {
		if opsList("live-flag")[a] {
			return a + " (live mode)", false
		}
		if opsList("prod-flag")[a] {
			return a, false // --prod, --production: the production deployment
		}
	}
	if s := prodOptValue(c, opsList("prod-option")); s != "" {
		return s, false
	}
	if s := fedProdTarget(c); s != "" {
		return s, false // kubectl apply -f - <<EOF … namespace: production (prod_fedtarget.go)
	}
	if remoteCLI {
		// global options before the subcommand (aws --profile prod rds …,
		// kubectl -n prod exec …) are set aside from Args: read the line
		for _, m := range lineOptions().FindAllStringSubmatch(e.F.Command, -1) {
			if prodWord.MatchString(m[2]) {
				return m[1] + " " + m[2], false
			}
		}
		for _, p := range c.Pos {
			if prodWord.MatchString(p) {
				return p, false
			}
		}
	}
	for _, a := range c.Args {
		if opsList("remote-flag")[a] {
			return a + " (the hosted service)", true
		}
	}
	return "", false
}

// prodAction classes what c does by its subcommand words: "destroy",
// "export", "read", "local" (a runner's build or test) or "change". The
// verbs are read in order and the first that says decides: kubectl auth
// can-i delete pods asks a question, heroku pg:reset destroys.
func prodAction(e *Env, c *Cmd) string {
	destroy, export, read, local := opsList("destroy-verb"), opsList("export-verb"), opsList("read-verb"), opsList("local-verb")
	if op := c.CloudOp(); op != nil && (op.Class == "local" && !op.Config || op.Class == "read" && !export[op.Verb]) {
		return op.Class // a cloud CLI's read or its own login (what-if, update-kubeconfig: callfacts/cloudops.txt)
	}
	if p, _ := scriptRun(c); p != "" && scriptReadsByName(p) {
		return "read" // python scripts/lookup_player.py --env production: named for a read
	}
	if evalReads(c) {
		return "read" // rails runner 'puts Sidekiq::DeadSet.new.size': only reads and prints
	}
	if (c.Name == "kcat" || c.Name == "kafkacat") && !c.Has("-P") {
		return "read" // -C consumes, -L lists: only -P produces
	}
	if opsList("export-prog")[c.Name] {
		if c.SchemaOnly() {
			return "read" // pg_dump -s, mysqldump --no-data: table definitions, no rows
		}
		return "export"
	}
	if text := sqlOf(c); text != "" && sqlReadOnly(clientOutfile(c, text)) {
		return "read" // wrangler d1 execute prod-db --command "SELECT …"
	}
	if prodReads(e, c) || c.Name == "ansible" && (ansibleReads(c) || execReads(e, c)) { // -m command -a 'journalctl …': a read payload
		return "read" // heroku config, pg:backups:capture, kubectl exec … -- nvidia-smi (pack_prodread.go)
	}
	remote := opsList("remote-cli")[c.Name] || pkgRunners[c.Name] // npx convex export --prod: the program it runs is aimed at production
	n := 0
	// last: the last word read as a verb; acted: a word before it that
	// changes (kubectl rollout restart deployments): a listing noun
	// after one is what it acts on
	last, acted := "", false
	for i, p := range c.Pos {
		if n == 3 {
			break
		}
		if prodWord.MatchString(p) && (i > 0 || optionBefore(c.Args, p)) && !strings.ContainsAny(p, " \t\n;(") || i > 0 && strings.ContainsAny(p, "=/") {
			continue // the target (acme-prod, fly -t prod, a file, KEY=VALUE), not a verb; code given to -c is no target
		}
		n++
		if last != "" && changeVerbIn(last) {
			acted = true
		}
		if !optionBefore(c.Args, p) || i == 0 {
			last = p // not an option's value (argocd app manifests x-prod --source live)
		}
		// words: every part of a verb (batch-delete-image: batch,
		// delete, image); heads: the parts that say what kind of verb
		// it is (describe-instances: describe; apps:info: apps, info)
		if nounBeforeRead(c.Pos, i) {
			last = c.Pos[i+1]
			continue // pscale backup list x-prod, radosgw-admin gc list: the kind a read word lists, not a verb
		}
		words := wordsOf(p)
		var heads []string
		for _, part := range strings.Split(strings.ToLower(p), ":") {
			heads = append(heads, part, strings.SplitN(part, "-", 2)[0])
			if d := strings.LastIndexByte(part, '.'); d > 0 && !strings.Contains(part, "/") {
				heads = append(heads, part[d+1:]) // salt … pillar.ls, test.ping: a module's function, named last
			}
		}
		for _, w := range words {
			if destroy[w] {
				return "destroy"
			}
		}
		for _, w := range camelParts(p) {
			if destroy[w] {
				return "destroy" // convex run --prod admin:wipeAllDocuments, users:deleteUser: a function named for what it does
			}
		}
		for _, w := range words {
			if export[w] && remote {
				if slices.Contains(words, "log") || slices.Contains(words, "logs") {
					return "read" // aws rds download-db-log-file-portion: a server's log read, as heroku logs
				}
				return "export"
			}
			if w == "pull" && !remote {
				return "read" // docker compose pull fetches images, not data
			}
		}
		for _, w := range heads {
			if read[w] || i == 0 && opsList("read-topic")[w] {
				return "read"
			}
		}
		if l := strings.ToLower(p); strings.HasPrefix(l, "show") || strings.HasPrefix(l, "list") {
			return "read" // showmigrations, listall, list-tasks (pack_read_words.go)
		}
	}
	if last != "" && !acted && !changeVerbIn(last) && (opsList("read-topic")[strings.ToLower(last)] || opsList("read-noun")[strings.ToLower(last)]) && !strings.ContainsAny(last, "=/.@") {
		return "read" // argocd app resources billing-prod, fly -t prod pipelines: a kind named last, with no verb, is listed
	}
	name, s0, s1 := c.Name, sub(c), ""
	if len(c.Pos) > 1 {
		s1 = c.Pos[1]
	}
	if pkgRunners[name] && len(c.Pos) > 1 {
		name, s0, s1 = c.Pos[0], strings.ToLower(c.Pos[1]), "" // npx serverless package --stage prod: the program npx runs
		if len(c.Pos) > 2 {
			s1 = c.Pos[2]
		}
	}
	if opsList("local-sub")[name+"/"+s0] || s1 != "" && opsList("local-sub")[name+"/"+s0+":"+strings.ToLower(s1)] {
		return "local" // MIX_ENV=prod mix release, serverless package --stage prod: a production build, made here; sls invoke local (SUB:SUB)
	}
	if opsList("runner-cli")[c.Name] {
		for _, p := range c.Pos {
			if local[strings.ToLower(p)] {
				return "local"
			}
		}
	}
	return "change"
}

// camelParts: the words of a camelCase name in p (admin:wipeAllDocuments:
// wipe, all, documents), nil when p has no lower-upper join, as most
// operands have none (no allocation for them).
func camelParts(p string) []string {
	if w := camelWords(p); w != p {
		return wordsOf(w)
	}
	return nil
}

// pkgRunners run a package's program by its name, the name their first
// operand (npx serverless package, bunx sls package).
var pkgRunners = map[string]bool{"npx": true, "bunx": true, "pnpx": true}

// nounBeforeRead: the word after pos[i] is a read verb (list, get,
// describe, list-peers) and pos[i] is a plain word: pos[i] names the
// kind it reads (pscale backup list, octopus release get x-prod).
func nounBeforeRead(pos []string, i int) bool {
	if i+1 >= len(pos) || strings.ContainsAny(pos[i], "=/.@") || strings.ContainsAny(pos[i+1], "=/.@:") {
		return false
	}
	read := opsList("read-verb")
	next := strings.ToLower(pos[i+1])
	head, _, _ := strings.Cut(next, "-")
	return read[next] || read[head] && head != next
}

// changeVerbIn: one of w's words is a change or destroy verb
// (remoteops.txt change-verb-any, destroy-verb).
func changeVerbIn(w string) bool {
	change, destroy := opsList("change-verb-any"), opsList("destroy-verb")
	for _, x := range wordsOf(w) {
		if change[x] || destroy[x] || callfacts.DestroyOrChangeWord(x) {
			return true
		}
	}
	return false
}

// prodHit is why c acts on production at the level the rule asks for.
func prodHit(e *Env, c *Cmd, deny bool) string {
	if onlyHelp(c) || e.dryRun(c) || c.Has("--syntax-check", "--check", "--list-hosts", "--list-tasks", "--dry_run", "--noop") {
		return ""
	}
	if callfacts.IsShell(c.Name) && c.Payload != "" && !callfacts.UnknownValue(c.Payload) {
		return "" // sh -c 'pg_isready -h db-prod…': the payload's commands are read, and judged, on their own
	}
	marker, hosted := prodMarkerOf(e, c)
	if marker == "" {
		return ""
	}
	act := prodAction(e, c)
	if act == "change" && (mirrorsFromProd(c) || copiesIntoDev(c)) {
		act = "read" // gsutil rsync -d gs://x-prod ./mirror, bq cp x-prod:a.b x-dev:scratch.c: production is only read
	}
	if deny {
		if act == "destroy" && !hosted {
			return c.Name + " destroys on production (" + marker + "): " + c.String()
		}
		return ""
	}
	switch act {
	case "local":
		return ""
	case "read":
		if strings.HasSuffix(marker, "(live mode)") && !opsList("live-quiet")[strings.ToLower(sub(c))] && !oneRecordRead(c) { // one record the user named: live_onerecord.go
			return c.Name + " reads live-mode data (real customers): " + c.String()
		}
		return ""
	case "export":
		// pg_dump -h db-prod … -f /tmp/x.dump is a read that keeps what
		// it read (where it then goes, the send rules judge); accounts
		// and secrets exported (firebase auth:export, -c users) carry
		// password hashes and keys
		if w := credentialExport(c); w != "" {
			return c.Name + " exports production's " + w + " (" + marker + "): " + c.String()
		}
		return ""
	case "destroy":
		return c.Name + " destroys on the hosted service (" + marker + "): " + c.String()
	}
	return c.Name + " changes production (" + marker + "): " + c.String()
}

func prodTargetRules() []Rule {
	names := opsNames("remote-cli", "runner-cli", "export-prog")
	// a line with no word for production costs one scan of its text:
	// the runners (go, npm, make, bash) are in every everyday command
	cheap := func(r Rule) Rule {
		match := r.Match
		r.Match = func(e *Env) string {
			if !mayNameProd(e.F.Command) {
				return ""
			}
			return match(e)
		}
		return r
	}
	return []Rule{
		cheap(cmdRule("external.systems:prod-destroy", Deny, "A destroy verb (delete, unset, gc, purge, reset…) of a command aimed at production by an environment variable, an option (-a app-prod, --env production, --project x-prod, --context production) or a resource named for it; the words are data (policy/remoteops.txt)", names,
			func(e *Env, c *Cmd) string { return prodHit(e, c, true) },
			[]string{"fly secrets unset DATABASE_URL -a prod-app", "mlflow gc --backend-store-uri postgresql://mlflow@mlflow-db.prod.internal/mlflow", "heroku pg:reset -a acme-production --confirm acme-production",
				"AWS_PROFILE=prod aws ecr batch-delete-image --repository-name api --image-ids imageTag=v1", "aws --profile prod secretsmanager delete-secret --secret-id db", "railway variables delete API_KEY --environment production", "vault kv destroy -versions=1 secret/prod/db"},
			[]string{"fly secrets list -a prod-app", "mlflow gc --backend-store-uri sqlite:///mlruns.db", "heroku pg:info -a acme-production", "fly secrets unset DATABASE_URL -a staging-app", "aws ecr describe-images --repository-name api --profile prod"})),
		cheap(cmdRule("external.systems:prod-change", Ask, "A change aimed at production (an environment variable, an option, a context or a resource naming it, or --live): deploys, migrations, syncs, secret writes, context switches; reads (list, get, describe, logs, plan) stay allowed, but copying production's data to a file here asks", names,
			func(e *Env, c *Cmd) string { return prodHit(e, c, false) },
			[]string{"heroku run rails db:migrate -a acme-prod", "kubectl config use-context production", "kubectl -n prod exec -it deploy/api -- rails console", "aws --profile prod rds reboot-db-instance --db-instance-identifier main", "argocd app sync payments-prod --force --prune", "dvc push -r prod-storage",
				"wrangler secret put STRIPE_KEY --env production", "docker compose -f docker-compose.prod.yml up -d --build", "PGHOST=replica.prod.acme.internal PGUSER=admin npm run db:migrate",
				"AWS_PROFILE=prod-admin npm run s3:clean", "firebase auth:export users.json --format=json --project acme-prod", "stripe customers list --live --limit 100",
				"make deploy ENV=production", "kcat -b kafka.prod:9092 -t payments -P -l events.json", "mongoexport --uri \"$PROD_MONGO_URI\" -c users --out /tmp/users.json", "supabase db push --linked"},
			[]string{"heroku logs -a acme-prod --tail", "kubectl get pods -n prod", "argocd app diff payments-prod", "terraform plan -var-file=prod.tfvars", "NODE_ENV=production npm run build",
				"docker compose -f docker-compose.prod.yml ps", "stripe customers list --limit 10", "gcloud compute instances list --project acme-prod", "kubectl config get-contexts", "make build ENV=production",
				"NODE_ENV=production node server.js", "kubectl auth can-i delete pods -n prod", "pg_dump -h localhost app_dev", "pg_dump -h prod-db.acme.internal -U readonly app -f /tmp/app.dump", "mongoexport --uri \"$PROD_MONGO_URI\" -c orders --out /tmp/orders.json", "dvc push", "kcat -b kafka.prod:9092 -t payments -C -c 10", "helm template ./chart -f values-prod.yaml", "heroku releases -a shop-prod", "stripe logs tail --live", "wrangler d1 execute prod-db --remote --command \"SELECT count(*) FROM users\"", "docker compose -f docker-compose.prod.yml pull"})),
	}
}

// tfArgsDestroy: TF_CLI_ARGS or TF_CLI_ARGS_<command> set to -destroy on
// the line: terraform plan/apply then destroys without saying so.
var tfArgsDestroy = re(`\bTF_CLI_ARGS(_[a-z]+)?=["']?[^"'\s]*\s*[^;&|]*-destroy\b`)

// writtenToFile: c's output goes to a file (> f, >> f, -o f, --out f).
func writtenToFile(e *Env, c *Cmd) bool {
	for _, r := range e.F.Redirects {
		if r.Cmd == c.Name && (r.Op == ">" || r.Op == ">>" || r.Op == ">|" || r.Op == "&>") && r.Target != "/dev/null" && !strings.HasPrefix(r.Target, "&") {
			return true
		}
	}
	if c.Has("-o", "--out", "--output-file", "--out-file") {
		return true
	}
	if c.Has("--output") {
		v := strings.ToLower(strings.Trim(optValue(c, "--output"), `"'`))
		return !outputFormats[v] // aws … --output text, az … --output table: a format, no file
	}
	return false
}

// credentialStoreExport: what c exports is a credential store (terraform
// state, a secrets manager, an auth provider's users with their password
// hashes, keys, kubeconfigs): by secretprints.txt or by a word of its
// subcommand or its program (policy/remoteops.txt credential-export). A
// database's, a KV store's or a bucket's export written here is a read.
func credentialStoreExport(c *Cmd) bool {
	if opsList("credential-export-prog")[c.Name] || c.PrintsStoredSecret() != "" || credentialExport(c) != "" {
		return true
	}
	words := opsList("credential-export")
	for _, p := range c.Pos {
		for _, w := range strings.FieldsFunc(strings.ToLower(p), func(r rune) bool { return r == ':' || r == '-' || r == '_' }) {
			if words[w] {
				return true
			}
		}
	}
	return false
}

// outputFormats are the values of the cloud CLIs' --output that name a
// format of what they print (aws, az, gcloud --format's kin, doctl).
var outputFormats = map[string]bool{"text": true, "json": true, "table": true, "yaml": true, "yml": true, "tsv": true, "jsonc": true, "yamlc": true, "none": true, "wide": true, "name": true}

func remoteExportRules() []Rule {
	return []Rule{
		deployTaskRule(), prodHostChangeRule(), prodHostVolumesRule(), prodRestoreRule(), prodHostGlobDeleteRule(), // pack_prod_restore.go
		cmdRule("external.systems:remote-state-export", Ask, "A remote service's state or data pulled into a file here (terraform state pull > f, an export or dump subcommand written to a file): state and dumps hold secrets and customers' data in plain text", opsNames("remote-cli"),
			func(e *Env, c *Cmd) string {
				if onlyHelp(c) || prodAction(e, c) != "export" || !writtenToFile(e, c) || opsList("export-defs")[c.Name] || !credentialStoreExport(c) {
					return "" // a data export kept here is a read, as pg_dump of production to a file is
				}
				return c.Name + " copies a remote service's state or data into a file here: " + c.String()
			},
			[]string{"terraform state pull > /tmp/state.json", "tofu state pull > state.json", "firebase auth:export users.json -o users.json"},
			[]string{"terraform state pull | jq '.serial'", "terraform state list", "terraform output -json > out.json", "dvc pull", "consul kv export config/ > /tmp/kv-backup.json", "heroku pg:backups:download -a acme -o latest.dump", "wrangler d1 export shopfront-prod --remote --output=/tmp/prod-backup.sql"}),
		{
			ID: "external.systems:terraform-env-destroy", Mode: Deny, Tools: shellTools, Cmds: []string{"terraform", "tofu", "terragrunt"},
			Desc: "terraform plan/apply run with TF_CLI_ARGS(_plan/_apply) set to -destroy on the same line: a destroy that does not say so",
			Match: func(e *Env) string {
				if !tfArgsDestroy.MatchString(e.F.Command) {
					return ""
				}
				return first(e.F.Cmds("terraform", "tofu", "terragrunt"), func(c *Cmd) string {
					if s := sub(c); s == "plan" || s == "apply" {
						return c.Name + " " + s + " runs with -destroy from TF_CLI_ARGS: it destroys the infrastructure"
					}
					return ""
				})
			},
			Catch: []string{"TF_CLI_ARGS_plan=\"-destroy\" terraform plan -out=tfplan && terraform apply tfplan", "TF_CLI_ARGS='-destroy -auto-approve' terraform apply", "export TF_CLI_ARGS_apply=-destroy; tofu apply -auto-approve"},
			Allow: []string{"TF_CLI_ARGS_plan=\"-refresh=false\" terraform plan", "terraform plan -destroy -out=destroy.tfplan", "TF_CLI_ARGS='-no-color' terraform apply tfplan"},
		},
	}
}

// mayNameProd is the cheap test before reading a line for production:
// it holds prod, prd, --live, --linked or --remote in any case.
func mayNameProd(line string) bool {
	for i := 0; i+3 <= len(line); i++ {
		switch line[i] | 0x20 {
		case 'p':
			if i+4 <= len(line) && line[i+1]|0x20 == 'r' && line[i+2]|0x20 == 'o' && line[i+3]|0x20 == 'd' || line[i+1]|0x20 == 'r' && line[i+2]|0x20 == 'd' {
				return true
			}
		case '-':
			if rest := line[i:]; strings.HasPrefix(rest, "--live") || strings.HasPrefix(rest, "--linked") || strings.HasPrefix(rest, "--remote") {
				return true
			}
		}
	}
	return false
}

// deployTask is the task of a runner whose name says it ships to others.
func deployTask(c *Cmd) string {
	names := runnerTasks(c) // taskrunners.txt
	ship, stay := opsList("deploy-task"), opsList("local-task")
	for _, n := range names {
		if strings.ContainsAny(n, "=/") {
			continue
		}
		hit := false
		if c.Name == "mage" {
			n = camelWords(n) // mage dockerPush: docker, push (gradle's bundleRelease is a build variant)
		}
		for _, w := range wordsOf(n) {
			if stay[w] {
				hit = false
				break
			}
			hit = hit || ship[w]
		}
		if hit {
			return n
		}
	}
	return ""
}

// camelWords puts a space before each upper-case letter that follows a
// lower-case one (dockerPush → docker Push): mage and invoke name
// targets in camel case.
func camelWords(n string) string {
	for i := 1; i < len(n); i++ {
		if n[i] >= 'A' && n[i] <= 'Z' && n[i-1] >= 'a' && n[i-1] <= 'z' {
			var b strings.Builder
			for j := 0; j < len(n); j++ {
				if j > 0 && n[j] >= 'A' && n[j] <= 'Z' && n[j-1] >= 'a' && n[j-1] <= 'z' {
					b.WriteByte(' ')
				}
				b.WriteByte(n[j])
			}
			return b.String()
		}
	}
	return n
}

func deployTaskRule() Rule {
	names := taskRunnerNames()
	return cmdRule("external.systems:deploy-task", Ask, "A task runner's task named for shipping to others (make deploy, npm run release, just deploy-prod, fab deploy, cap production deploy): it deploys, releases or publishes whatever its definition says; dry runs and tasks that only build, check or write notes stay allowed; the words are data (policy/remoteops.txt)", names,
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || c.Has("-n", "--just-print", "--dry-run", "--dry", "--list", "-l") && c.Name != "npm" {
				return ""
			}
			if listsTasks(c) {
				return "" // rake -T release: the tasks are listed, none runs
			}
			if definitionRead(e, c) { // what the definition runs was read and is judged instead
				return ""
			}
			if t := deployTask(c); t != "" {
				return c.Name + " " + t + " ships to others by its name: " + c.String()
			}
			return ""
		},
		[]string{"make deploy", "npm run release", "just deploy-prod", "fab -H web1,web2 deploy", "yarn release:minor", "task ship", "cap production deploy", "pnpm run publish:packages"},
		[]string{"make -n deploy", "make build", "npm run build:release", "npm run release-notes", "just test", "make deploy-check", "yarn dev", "npm run lint", "task --list"})
}

// lineOptions matches a prod-option and its value anywhere on the line.
var lineOptions = sync.OnceValue(func() *regexp.Regexp {
	var alts []string
	for _, o := range opsWords("prod-option") {
		alts = append(alts, regexp.QuoteMeta(o))
	}
	sort.Strings(alts)
	return regexp.MustCompile(`(?:^|\s)(` + strings.Join(alts, "|") + `)(?:=|\s+)['"]?([^\s'"]+)`)
})

// sqlRead: statements that only read: a query, a listing, a table's
// definition, or a check that reports (CHECK TABLE, CHECKSUM TABLE,
// EXISTS TABLE: ClickHouse and MySQL verify or answer, changing nothing).
var sqlRead = re(`(?is)^\s*(select|show|describe|desc|explain|exists\s+(?:temporary\s+)?(?:table|database|dictionary|view)?|check\s+(?:table|grant)|checksum\s+table|with\s+\w+\s+as\s*\(\s*select|values|table\s+\w+\s*$|\\d)`)

// sqlReadOnly: every statement of text reads.
func sqlReadOnly(text string) bool {
	n := 0
	for _, st := range strings.Split(text, ";") {
		if strings.TrimSpace(st) == "" {
			continue
		}
		n++
		if !sqlRead.MatchString(st) || strings.Contains(strings.ToLower(st), " into ") {
			return false
		}
	}
	return n > 0
}

// prodHostChange: a command run on a production host through ssh (ssh
// web-prod-01 'git pull && npm ci') that changes, deletes, stops or runs
// something there: the live machine changes under its users.
func prodHostChangeRule() Rule {
	return Rule{
		ID: "external.systems:prod-host-change", Mode: Ask, Tools: shellTools, Cmds: append([]string{"ssh", "autossh", "mosh"}, callfacts.RemoteShellTools()...),
		Desc: "A command run through ssh on a host named for production that changes, deletes, stops or runs something there (ssh web-prod-01 'git pull && npm ci'); reads (uptime, tail, df) stay allowed",
		Match: func(e *Env) string {
			for host, c := range e.prodHostRuns() {
				if c.Effect != callfacts.EffectNone && !onlyTemp(c, e) {
					return c.Name + " " + string(c.Effect) + "s on " + host + ", a production host: " + c.String()
				}
			}
			return ""
		},
		Catch: []string{"ssh web-prod-01 'cd /srv/app && git pull && npm ci'", "ssh deploy@api.prod.example.com 'sed -i s/debug/info/ /etc/app.conf'", "ssh db-prod 'sudo -u postgres psql -c \"VACUUM FULL\"'"},
		Allow: []string{"ssh web-prod-01 uptime", "ssh web-prod-01 'tail -n 100 /var/log/app.log'", "ssh web-staging-01 'cd /srv/app && git pull'", "ssh web-prod-01 'df -h && free -m'", "ssh prod 'rm -rf /tmp/build-cache'"},
	}
}

// prodSSHHost is the production host the line runs commands on through
// ssh or a remote shell (ssh web-prod-01 '…', tsh ssh root@db-prod-1),
// or "".
func prodSSHHost(e *Env) string {
	if !mayNameProd(e.F.Command) {
		return ""
	}
	host := ""
	for _, c := range e.F.Cmds("ssh", "autossh", "mosh") {
		for _, p := range c.Pos[:min(1, len(c.Pos))] {
			if prodWord.MatchString(p) {
				host = p
			}
		}
	}
	for i := range e.F.Commands {
		// tsh ssh root@db-prod-1, fly ssh console -a api-prod: the
		// words before the command name where it runs (rshell.txt)
		for _, p := range callfacts.RemoteShellWhere(&e.F.Commands[i]) {
			if prodWord.MatchString(p) {
				host = p
			}
		}
	}
	return host
}

// prodHostVolumesRule: a container engine's volumes removed on a
// production host (ssh api-prod-1 'docker volume rm app_mongo-data',
// docker compose down -v there): a volume is where the service's data
// lives — on a laptop it is a dev database's scratch, on production it
// is the database.
func prodHostVolumesRule() Rule {
	return Rule{
		ID: "external.systems:prod-host-volumes", Mode: Deny, Tools: shellTools, Cmds: []string{"ssh", "autossh", "mosh"},
		Desc: "A container engine's volumes removed on a host named for production through ssh (docker volume rm, volume prune, compose down -v): the service's data is in them",
		Match: func(e *Env) string {
			for host, c := range e.prodHostRuns() {
				if c.Name != "docker" && c.Name != "podman" && c.Name != "nerdctl" && c.Name != "docker-compose" {
					continue
				}
				sub := c.Sub(0)
				if sub == "volume" && (c.Sub(1) == "rm" || c.Sub(1) == "remove" || c.Sub(1) == "prune") ||
					(sub == "compose" || c.Name == "docker-compose") && slices.Contains(c.Pos, "down") && c.Has("-v", "--volumes") {
					return c.Name + " removes volumes, the service's data, on " + host + ", a production host: " + c.String()
				}
			}
			return ""
		},
		Catch: []string{"ssh deploy@api-prod-1.example.io 'docker volume rm app_mongo-data'", "ssh web-prod-01 'cd /srv/app && docker compose down -v'", "ssh db-prod 'podman volume prune -f'"},
		Allow: []string{"ssh deploy@api-prod-1.example.io 'docker volume ls'", "ssh web-staging-01 'docker volume rm app_cache'", "docker volume rm app_mongo-data", "ssh web-prod-01 'docker compose down'", "ssh web-prod-01 'docker volume inspect app_pg'"},
	}
}

// onlyTemp: every path c writes or deletes is a scratch directory.
func onlyTemp(c *Cmd, e *Env) bool {
	for _, t := range c.Targets {
		if callfacts.ZoneOf(t, e.F.Home, e.F.Project) != callfacts.ZoneTemp {
			return false
		}
	}
	return len(c.Targets) > 0
}

// listsTasks: c is a task runner given an option that lists or describes
// its tasks and runs none (rake -T release, gulp --tasks; remoteops.txt
// task-list-opt).
func listsTasks(c *Cmd) bool {
	for _, f := range c.Flags {
		if opsList("task-list-opt")[c.Name+":"+f] {
			return true
		}
	}
	return false
}

// credentialExport is the word of an export's arguments that names
// accounts or secrets (auth:export, -c users, --table=api_keys), "" for
// none: such a file holds password hashes and keys, not only records.
func credentialExport(c *Cmd) string {
	for i, a := range c.Args {
		if strings.HasPrefix(a, "--user") || i > 0 && (c.Args[i-1] == "-U" || c.Args[i-1] == "-u" || strings.HasPrefix(c.Args[i-1], "--user")) {
			continue // the login it connects as (-U app_user), not what it exports
		}
		for _, w := range wordsOf(a) {
			switch w {
			case "auth", "users", "user", "accounts", "credentials", "secrets", "passwords", "keys", "tokens", "sessions":
				return w
			}
		}
	}
	return ""
}

// clientOutfileRe: ClickHouse's SELECT … INTO OUTFILE 'f' [FORMAT x],
// written by the client on this machine.
var clientOutfileRe = re(`(?i)\binto\s+outfile\s+'[^']*'`)

// clientOutfile is text with ClickHouse's INTO OUTFILE clause left out:
// the client saves the rows here, as "> f" would. (MySQL's INTO OUTFILE
// writes on the server and stays a write.)
func clientOutfile(c *Cmd, text string) string {
	if c.Name != "clickhouse-client" && c.Name != "clickhouse" {
		return text
	}
	return clientOutfileRe.ReplaceAllString(text, " ")
}
