package policy

import (
	"path"
	"strconv"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Production rewritten, destroyed or disrupted. The remote-change rules
// (the rules of a Remote pack: external.systems) each know a change leaves this machine and ask; a change
// that rewrites or disrupts a place the line names as production is
// denied instead, whichever rule found the change: the level is raised
// here, in one place (Engine.evaluate), not rule by rule. What rewrites
// or disrupts is read from the command that carries it, and the place
// it is aimed at must be named on that command (its options, operands,
// its --context or --host) or on the line's connection variables or the
// ssh host it runs on:
//   - a restore or load told to replace what is there
//     (Restore-DbaDatabase -WithReplace, neo4j-admin load
//     --overwrite-destination, RESTORE DATABASE … WITH REPLACE);
//   - a stack taken down with its volumes (compose down -v);
//   - a schema migration tool changing production (flyway migrate or
//     repair, liquibase update on a prod URL, conf or defaults file);
//   - a load test or a fault injected (k6, locust, tc … netem,
//     toxiproxy toxics, chaos manifests applied);
//   - every session thrown off a database (WITH ROLLBACK IMMEDIATE,
//     SINGLE_USER) or a batch that terminates or deletes what matches;
//   - a retention cut to a week or less (history past it is deleted).
// Changes that add or can be undone (a deploy, a secret set, one
// record's update, a refund) keep asking, as does any change whose place
// the line does not name as production. The words are data
// (remoteops.txt prod-replace-opt, prod-restore-verb, disrupt-tool,
// disrupt-word, batch-destroy-value).

// prodRewrite is why the line rewrites, destroys or disrupts production,
// "" when it does not; read once per call, only when a remote-change
// rule asks.
func (e *Env) prodRewrite() string {
	if e.prodRWRead {
		return e.prodRW
	}
	e.prodRWRead = true
	if !mayNameProd(e.F.Command) {
		return ""
	}
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if onlyHelp(c) || e.dryRun(c) {
			continue
		}
		what := rewriteOf(e, c)
		if what == "" {
			continue
		}
		where := prodPlaceOf(e, c)
		if t := migrateTarget(c); where == "" && isMigrateTool(c) && strings.HasPrefix(t, "production (") {
			where = strings.TrimSuffix(strings.TrimPrefix(t, "production ("), ")") // goose postgres "host=pg.prod… user=app" up: a conninfo
		}
		if where != "" {
			e.prodRW = what + " on production (" + where + ")"
			return e.prodRW
		}
	}
	return ""
}

// rewriteOf says how c rewrites, destroys or disrupts where it acts, ""
// when it does not.
func rewriteOf(e *Env, c *Cmd) string {
	name := strings.ToLower(c.Name)
	has := func(ws ...string) bool {
		for _, p := range c.Pos {
			for _, w := range ws {
				if strings.EqualFold(p, w) {
					return true
				}
			}
		}
		return false
	}
	// a restore or load told to replace what is there
	for _, f := range c.Flags {
		lf := strings.ToLower(f)
		if !opsList("prod-replace-opt")[lf] || falseValue(optValue(c, f)) {
			continue
		}
		restore := strings.Contains(name, "restore") || strings.Contains(name, "load") || strings.Contains(name, "import")
		for _, p := range c.Pos {
			restore = restore || opsList("prod-restore-verb")[strings.ToLower(p)]
		}
		if restore {
			return c.Name + " replaces what is there (" + f + ")"
		}
	}
	if sql := strings.ToLower(sqlOf(c)); sql != "" {
		switch {
		case strings.Contains(sql, "restore database") && strings.Contains(sql, "replace"):
			return c.Name + " restores a database over the one there (RESTORE … WITH REPLACE)"
		case strings.Contains(sql, "rollback immediate"), strings.Contains(sql, "single_user"):
			return c.Name + " throws every session off the database (" + firstOf(sql, "rollback immediate", "single_user") + ")"
		}
	}
	// a stack taken down with its volumes
	if (name == "docker" || name == "podman" || name == "nerdctl") && has("compose") || name == "docker-compose" || name == "podman-compose" {
		if has("down") && c.Has("-v", "--volumes") {
			return c.Name + " compose down -v removes the stack's volumes, its data"
		}
	}
	// a schema migration
	if isMigrateTool(c) {
		if v := migrateVerb(c); v != "" && !opsList("migrate-read")[v] && !strings.HasSuffix(v, "sql") && (migrateTarget(c) != "" || prodConnEnv(e) != "") {
			return c.Name + " " + v + " migrates the schema"
		}
	}
	// a load test, a fault injected
	if opsList("load-tool")[name] && (name != "k6" && name != "artillery" && name != "vegeta" || has("run", "cloud", "quick", "attack")) {
		return c.Name + " loads it with traffic"
	}
	switch {
	case opsList("disrupt-tool")[name]:
		return c.Name + " injects faults"
	case name == "tc" && has("qdisc") && has("add", "change", "replace") && has("netem"):
		return "tc netem degrades the network"
	case strings.HasPrefix(name, "toxiproxy") && has("toxic", "t") && has("add", "a", "update", "u"):
		return c.Name + " adds a toxic to the connection"
	case (name == "kubectl" || name == "oc") && has("apply", "create", "replace"):
		for _, a := range c.Args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			b := strings.ToLower(path.Base(a))
			for _, w := range opsWords("disrupt-manifest") {
				if strings.Contains(b, w) {
					return c.Name + " applies a fault (" + path.Base(a) + ")"
				}
			}
		}
		h := strings.ToLower(c.Heredoc)
		for _, w := range opsWords("disrupt-kind") {
			if strings.Contains(h, w) {
				return c.Name + " applies a fault (" + w + ")"
			}
		}
	}
	for i, a := range c.Args {
		k, v, ok := strings.Cut(a, "=")
		if !ok && i+1 < len(c.Args) {
			v = c.Args[i+1]
		}
		kl := strings.ToLower(k)
		if !strings.HasPrefix(kl, "-") && !ok {
			continue
		}
		val := strings.ToLower(strings.Trim(v, `"'`))
		// a batch that terminates or deletes what a query matches
		if strings.HasPrefix(kl, "-") && (strings.Contains(kl, "type") || strings.Contains(kl, "action") || strings.Contains(kl, "operation")) && opsList("batch-destroy-value")[val] {
			return c.Name + " runs a batch that " + val + "s what it matches (" + k + " " + val + ")"
		}
		// a retention cut short: what is older is deleted
		if strings.Contains(kl, "retention") {
			if d := retentionDays(kl, val); d > 0 && d <= 7 {
				return c.Name + " cuts retention to " + val + " (" + k + "): older history is deleted"
			}
		}
	}
	return ""
}

// isMigrateTool: c is a schema migration tool or a build tool that runs
// one (pack_migrate_shared.go).
func isMigrateTool(c *Cmd) bool {
	n := path.Base(c.Name)
	return opsList("migrate-tools")[n] || opsList("migrate-orm-tools")[n] || strings.HasPrefix(n, "mvn") || strings.HasPrefix(n, "gradle")
}

// retentionDays reads a retention value as days, -1 when the line does
// not say how long: --retention-days 1, retention.ms=3600000,
// --retention 24h (a bare number under a key with no unit says nothing).
func retentionDays(key, v string) float64 {
	unit := -1.0
	for _, s := range []struct {
		suf string
		u   float64
	}{{"ms", 1.0 / 86400000}, {"hours", 1.0 / 24}, {"hrs", 1.0 / 24}, {"seconds", 1.0 / 86400}, {"secs", 1.0 / 86400}, {"days", 1}, {"weeks", 7}} {
		if strings.HasSuffix(key, s.suf) {
			unit = s.u
			break
		}
	}
	if unit < 0 {
		for _, s := range []struct {
			suf string
			u   float64
		}{{"ms", 1.0 / 86400000}, {"h", 1.0 / 24}, {"d", 1}, {"w", 7}, {"s", 1.0 / 86400}} {
			if n, ok := strings.CutSuffix(v, s.suf); ok && n != "" {
				v, unit = n, s.u
				break
			}
		}
	}
	n, err := strconv.ParseFloat(v, 64)
	if unit < 0 || err != nil || n < 0 {
		return -1
	}
	return n * unit
}

// prodPlaceOf is the word that names production as where c acts, ""
// when none does: one of c's arguments (a host, URL, context, namespace,
// profile or configuration file; not a message, title or output file),
// the place a subcommand CLI's global option names (c.Remote), a
// connection variable set on the line, or the ssh host c runs on.
func prodPlaceOf(e *Env, c *Cmd) string {
	args := c.Args
	if c.Typed != nil {
		args = c.Typed
	}
	skip := opsList("prod-value-skip-any")
	what := opsList("what-file-prog")[strings.ToLower(c.Name)]
	isSkip := func(o string) bool {
		o = strings.ToLower(o)
		return skip[o] || what && opsList("what-file-opt")[o]
	}
	for i, a := range args {
		if i > 0 && isSkip(args[i-1]) {
			continue // -m "prod hotfix", -o prod.json, compose -f prod.yml: a message, an output, what runs — not where
		}
		k, v, ok := strings.Cut(a, "=")
		if ok && strings.HasPrefix(k, "-") && isSkip(k) {
			continue
		}
		if !ok || !strings.HasPrefix(k, "-") && !envName(k) {
			v = a
		}
		if prodPlace(v) {
			return strings.Trim(v, `"'`)
		}
		if m := prodVar.FindString(a); m != "" {
			return m // --url "$PROD_DATABASE_URL": the variable is named for production
		}
	}
	if c.Remote != "" && prodPlace(c.Remote) {
		return c.Remote
	}
	for _, m := range envAssign.FindAllStringSubmatch(e.F.Command, -1) {
		if v := strings.Trim(m[2], `"'`); prodPlace(v) && (strings.Contains(v, "://") || strings.Contains(m[1], "HOST") || strings.Contains(m[1], "URL") || opsList("prod-env")[m[1]]) {
			return m[1] + "=" + v // DB=jdbc:postgresql://ledger-prod…; flyway -url=$DB repair
		}
	}
	if runsOverSSH(c, sshOutermost) {
		if h := prodSSHHost(e); h != "" {
			return h
		}
	}
	return ""
}

// prodPlace: v names production — prod, production or prd standing as a
// word (api.shop-prod.acme.com, prod-eu-1, liquibase.prod.properties), a
// host named sqlprod01 or dbprd2 — and not a pre-production or
// non-production one.
func prodPlace(v string) bool {
	v = strings.Trim(v, `"'`)
	if v == "" || strings.ContainsAny(v, " \t\n") || callfacts.UnknownValue(v) {
		return false
	}
	l := strings.ToLower(v)
	for _, w := range []string{"preprod", "pre-prod", "nonprod", "non-prod", "not-prod", "pre-production", "non-production"} {
		l = strings.ReplaceAll(l, w, "")
	}
	return prodWord.MatchString(l) || hostProdRe.MatchString(l)
}

// hostProdRe: a host's first label with the marker run into its role and
// a number (sqlprod01, dbprd2, webprod-3).
var hostProdRe = re(`(?:^|[^a-z0-9])[a-z]{2,}(?:prod|prd)[0-9]+(?:[^a-z]|$)`)

// envName: k is written as a variable's name (BASE_URL, DB_HOST).
func envName(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// falseValue: an option's value that turns it off (--overwrite-destination=false).
func falseValue(v string) bool {
	switch strings.ToLower(strings.Trim(v, `"'`)) {
	case "false", "0", "no", "off":
		return true
	}
	return false
}

// firstOf is the first of words found in s.
func firstOf(s string, words ...string) string {
	for _, w := range words {
		if strings.Contains(s, w) {
			return w
		}
	}
	return ""
}
