package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// prodJobRule: a script run by path, or a batch job a runner is given by
// name (Data Loader's process.sh CONF accountDeleteProd, java …
// DataLoaderRunner process.name=contactUpsertProd), whose name joins a
// verb that changes or deletes records (remoteops.txt data-job-verb) to a
// word of production: what it does there is all its name says, so it
// asks. A script on disk is read and judged by what it runs; a name
// without production (accountDeleteDev) is a developer's own.
func prodJobRule() Rule {
	return Rule{ID: "external.systems:prod-job-name", Mode: Ask, Tools: shellTools, On: On(0).OrText("prod", "Prod", "PROD", "Prd", "prd"),
		Desc: "A script or a batch job named for changing or deleting records on production (./scripts/purge_accounts_prod.sh, process.sh conf accountDeleteProd, process.name=contactUpsertProd) whose text is not on disk to read: it acts on production by its name; the verbs are data (policy/remoteops.txt data-job-verb)",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if onlyHelp(c) || e.dryRun(c) {
					continue
				}
				for _, n := range jobNames(e, c) {
					if prodJobName(n) {
						return c.Name + " runs " + n + ", named for changing records on production: " + c.String()
					}
				}
			}
			return ""
		},
		Catch: []string{"./dataloader/bin/process.sh ./dataloader/conf leadDeleteProd", "java -cp dataloader.jar com.salesforce.dataloader.process.DataLoaderRunner run.mode=batch process.name=opportunityUpsertProd", "./scripts/purge_accounts_prod.sh", "bash ops/backfill-orders-production.sh"},
		Allow: []string{"./dataloader/bin/process.sh ./dataloader/conf leadExtractProd", "./dataloader/bin/process.sh ./dataloader/conf leadDeleteDev", "./scripts/report_prod_usage.sh", "grep -rn accountDeleteProd dataloader/conf", "cat scripts/purge_accounts_prod.sh"}}
}

// jobNames: the script c runs by path (unless it is on disk to read), and
// the job names it is given — bare words and key=value values that are
// not paths.
func jobNames(e *Env, c *Cmd) []string {
	script := ""
	switch {
	case (callfacts.IsShell(c.Name) || callfacts.IsInterpreter(c.Name)) && len(c.Pos) > 0 && c.Payload == "":
		script = c.Pos[0]
	case strings.Contains(c.Raw, "/"):
		script = c.Raw
	case c.Name != "java":
		return nil
	}
	var out []string
	if script != "" && !fileExists(e.abs(c, script)) {
		out = append(out, script[strings.LastIndexByte(script, '/')+1:])
	}
	for _, a := range c.Args {
		if _, v, ok := strings.Cut(a, "="); ok {
			a = v
		}
		if a == "" || a == script || strings.ContainsAny(a, "/\\ $`") || strings.HasPrefix(a, "-") {
			continue
		}
		out = append(out, a)
	}
	return out
}

// prodJobName: n's words (split at case changes and separators) hold a
// data-job verb and a word of production.
func prodJobName(n string) bool {
	if i := strings.LastIndexByte(n, '.'); i > 0 && len(n)-i <= 4 {
		n = n[:i] // purge_accounts_prod.sh
	}
	verbs := opsList("data-job-verb")
	verb, prod := false, false
	for _, w := range camelSplit(n) {
		switch {
		case w == "prod" || w == "production" || w == "prd":
			prod = true
		case verbs[w]:
			verb = true
		}
	}
	return verb && prod
}

// camelSplit: the lower-case words of n, split at separators and where a
// lower-case letter or digit is followed by an upper-case one
// (accountDeleteProd → account delete prod).
func camelSplit(n string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(n); i++ {
		end := i == len(n)
		var r byte
		if !end {
			r = n[i]
		}
		alnum := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		boundary := !end && start >= 0 && r >= 'A' && r <= 'Z' && (n[i-1] >= 'a' && n[i-1] <= 'z' || n[i-1] >= '0' && n[i-1] <= '9')
		if start >= 0 && (end || !alnum || boundary) {
			out = append(out, strings.ToLower(n[start:i]))
			start = -1
		}
		if !end && alnum && start < 0 {
			start = i
		}
	}
	return out
}
