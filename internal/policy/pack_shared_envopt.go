package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A shared non-production environment named on the line. Staging, UAT
// and QA hold data a team uses (test customers, a partner's sandbox
// org, the pipeline's staging warehouse): a program that runs, loads,
// imports or migrates there changes what others look at, whatever tool
// does it. Production has its own rules (pack_unknown_prodopt.go,
// pack_prodtarget.go); here the environment is named by an option of a
// program no table knows (meltano --environment=staging run …, rd run -p
// billing-staging, dagster-cloud job launch --deployment staging), by an
// option of a project script, module or task a runner starts (node
// scripts/backfill.js --project shop-staging, npm run seed -- --endpoint
// https://orders-stg…), or by a mode variable (RAILS_ENV=staging bin/rails
// db:migrate). The verb decides: a change asks; reads, builds and tests
// stay allowed. The words are data (remoteops.txt shared-env,
// shared-env-option, shared-env-verb).

// sharedEnvValue: v names a shared non-production environment by one of
// its words and is neither production's (judged elsewhere) nor this
// machine's.
func sharedEnvValue(v string) bool {
	v = strings.Trim(v, `"'`)
	if v == "" || strings.HasPrefix(v, "-") || strings.ContainsAny(v, " \t\n") || callfacts.UnknownValue(v) || prodWord.MatchString(v) {
		return false
	}
	if strings.Contains(v, "localhost") || strings.Contains(v, "127.0.0.1") {
		return false
	}
	return nameHas(v, opsList("shared-env"))
}

// sharedEnvOpt is "option value" for c's option naming a shared
// environment, "" for none.
func sharedEnvOpt(c *Cmd) string {
	return optValueWhere(c, opsList("shared-env-option"), sharedEnvValue)
}

// sharedModeAssign is the mode variable of the line (RAILS_ENV=staging,
// ENV=uat) naming a shared environment, "" for none.
func sharedModeAssign(e *Env) string {
	mode := opsList("prod-mode-env")
	for _, m := range envAssign.FindAllStringSubmatch(e.F.Command, -1) {
		if mode[m[1]] && sharedEnvValue(m[2]) {
			return m[1] + "=" + m[2]
		}
	}
	return ""
}

// sharedChangeWord: one of w's words runs or changes work on a
// service's data (a change or destroy verb, or a backfill, seed, load).
func sharedChangeWord(w string) bool {
	data, rc := opsList("shared-env-data"), opsList("run-change")
	for _, x := range wordsOf(w) {
		if data[x] {
			return true
		}
	}
	return rc[strings.ToLower(w)] && !opsList("local-verb")[strings.ToLower(w)]
}

// runnerChange: c, a runner or a program started by path, runs a
// project script, module or task whose name (or first subcommand)
// changes, or is given an option that does (--update, --full-refresh):
// the word that says so, "" for none. Builds, tests and reads by name
// are no change.
func runnerChange(e *Env, c *Cmd) string {
	var names []string
	if p, _ := scriptRun(c); p != "" {
		if scriptReadsByName(p) {
			return ""
		}
		b := p[strings.LastIndexByte(p, '/')+1:]
		if i := strings.LastIndexByte(b, '.'); i > 0 {
			b = b[:i]
		}
		names = append(names, callfacts.CamelParts(b)...)
		names = append(names, b)
	}
	if m := optValue(c, "-m"); m != "" && callfacts.IsInterpreter(c.Name) {
		names = append(names, m)
	}
	names = append(names, runnerTasks(c)...)
	if strings.Contains(c.Raw, "/") || runnerForms()[c.Name].first {
		names = append(names, c.Pos[:min(2, len(c.Pos))]...)
	} else if len(c.Pos) > 0 && !callfacts.IsInterpreter(c.Name) {
		names = append(names, c.Pos[0])
	}
	local := opsList("local-verb")
	for _, n := range names {
		if local[strings.ToLower(n)] || frameworkReads[n] {
			return ""
		}
	}
	for _, n := range names {
		if strings.ToLower(n) != "run" && sharedChangeWord(n) {
			return n
		}
	}
	for _, f := range c.Flags {
		f, _, _ = strings.Cut(f, "=")
		if opsList("change-flag-any")[f] || f == "--full-refresh" {
			return f
		}
	}
	return ""
}

// unknownSharedVerb: one of the first words of an unknown program's
// operands loads, seeds, backfills or materializes (rd jobs load,
// dagster asset materialize): work run on the service's data. A read
// word before it (jobs list) says it reads.
func unknownSharedVerb(c *Cmd) bool {
	read := opsList("read-verb")
	for _, p := range c.Pos[:min(3, len(c.Pos))] {
		if strings.ContainsAny(p, "=/.@") || sharedEnvValue(p) {
			continue
		}
		if read[strings.ToLower(p)] {
			return false
		}
		if sharedChangeWord(p) {
			return true
		}
		if changeVerbIn(p) {
			return false // deploy, restart: the first verb decides (lakectl app deploy ingest-worker)
		}
	}
	return false
}

func sharedEnvOptRule() Rule {
	judge := func(e *Env, c *Cmd) (string, string) {
		if onlyHelp(c) || e.dryRun(c) || c.Has("--check", "--noop", "--what-if", "--plan", "--list") {
			return "", ""
		}
		unknown := unknownProgram(c)
		runner := !unknown && (opsList("runner-cli")[c.Name] && !callfacts.IsShell(c.Name) || strings.Contains(c.Raw, "/") && !strings.HasPrefix(c.Raw, "/usr/") && !strings.HasPrefix(c.Raw, "/bin/"))
		if !unknown && !runner {
			return "", ""
		}
		m := sharedEnvOpt(c)
		if m == "" {
			m = sharedModeAssign(e)
		}
		if m == "" {
			return "", ""
		}
		if unknown {
			if unknownVerbClass(c, false) == "" || !unknownSharedVerb(c) {
				return "", ""
			}
		} else if runnerChange(e, c) == "" {
			return "", ""
		}
		return "ask", c.Name + " changes data in a shared environment (" + m + "): " + short80(c.String())
	}
	match := anyAtLevel(judge, "ask")
	return Rule{ID: "external.systems:shared-env-option", Mode: Ask, Tools: shellTools, On: On(0).OrText("stag", "Stag", "STAG", "stg", "uat", "UAT", "qa", "QA", "preprod", "nonprod", "non-prod", "shared", "perf"),
		Desc:  "A run, launch, import, load, migration, seed or backfill aimed at a shared non-production environment (staging, uat, qa, preprod) by an option of a program no table knows, of a project script or task, or by a mode variable (meltano --environment=staging run …, node scripts/backfill.js --project shop-staging, RAILS_ENV=staging bin/rails db:migrate): that environment's data is others' too; reads, builds and tests stay allowed; the words are data (policy/remoteops.txt shared-env, shared-env-option, shared-env-verb)",
		Match: match,
		Catch: []string{"meltano --environment=staging run tap-x target-y", "rd run -p billing-staging -j reindex-invoices", "node scripts/backfillOrderTotals.js --project shop-staging", "RAILS_ENV=staging bin/rails db:migrate", "dagster-cloud job launch --deployment staging --job refresh_marts", "python -m pipelines.enrich --project acme-staging --update"},
		Allow: []string{"meltano --environment=dev run tap-x target-y", "meltano --environment=staging config list", "RAILS_ENV=staging bin/rails assets:precompile", "RAILS_ENV=test bin/rails db:migrate", "node scripts/report_orders.js --project shop-staging", "npm run build -- --env staging", "python train.py --env staging", "rd jobs list -p billing-staging"}}
}
