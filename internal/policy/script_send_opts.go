package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
	"github.com/warden-dev/warden/internal/lazyre"
)

// A project's own program — a script run by path (python3 scripts/x.py,
// ./bin/x.sh), a module run with python -m (python -m billing.notices),
// or a project module an inline one-liner loads and runs (node -e
// "require('./scripts/sync-members').run({dryRun: false})") — whose
// options say what the run does although its text is not on the line:
// --send, --notify, --deliver, --broadcast, --publish send messages to
// people or publish to a service; --no-dry-run, --dry-run=false and
// dryRun: false turn off the run's own guard, so the change it exists to
// make happens for real. The option words are data (remoteops.txt
// script-send-option, script-live-option): the program's name plays no
// part, so any field's notifier, mailer or sync script is read the same
// way. A dry run, --help, and a send option whose value names this
// machine or a test (--notify=false, --send-to test) are not flagged.

// scriptDryRunOff: inline code that calls a program with its dry run
// turned off (dryRun: false, dry_run=False, dryrun: 0).
var scriptDryRunOff = lazyre.New(`(?i)\bdry_?run['"]?\s*[:=]\s*(?:false|0|nil|no)\b`)

// scriptSendOpt says which option of args asks a project program to send,
// publish or run for real, "" for none.
func scriptSendOpt(args []string) string {
	send, live := opsList("script-send-option"), opsList("script-live-option")
	if sendsToCatcher(args) {
		return "" // --smtp-host mailhog: the messages go to the developer's own catcher
	}
	for i, a := range args {
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "--") {
			continue
		}
		k, v, hasV := strings.Cut(strings.ToLower(a), "=")
		switch {
		case send[k] && (!hasV || v == "true" || v == "1" || v == "yes"):
			return a
		case live[k]:
			return a
		case (k == "--dry-run" || k == "--dryrun" || k == "--dry_run") && (hasV && (v == "false" || v == "0" || v == "no") || !hasV && i+1 < len(args) && (args[i+1] == "false" || args[i+1] == "0")):
			return a
		}
	}
	return ""
}

// sendsToCatcher: the run's host or server option names this machine or
// a developer's own catcher service (--smtp-host localhost, --smtp-host
// mail.local, --server mailhog:1025): what it sends lands where the
// developer reads it, not with people.
func sendsToCatcher(args []string) bool {
	own := opsList("lan-act-own-host")
	for i, a := range args {
		k, v, hasV := strings.Cut(strings.ToLower(a), "=")
		if !strings.HasPrefix(k, "--") || !strings.Contains(k, "host") && !strings.Contains(k, "server") && !strings.Contains(k, "smtp") && !strings.Contains(k, "url") {
			continue
		}
		if !hasV && i+1 < len(args) {
			v = strings.ToLower(args[i+1])
		}
		h := urlHost(v)
		h, _, _ = strings.Cut(h, ":")
		first, _, _ := strings.Cut(h, ".")
		if h == "localhost" || callfacts.LoopbackAddr(h) || first == "mailhog" || first == "mailpit" || first == "mailcatcher" || first == "smtp4dev" ||
			own[first] && (h == first || strings.HasSuffix(h, ".local") || strings.HasSuffix(h, ".localhost")) {
			return true
		}
	}
	return false
}

// pythonModuleRun is the module python -m runs and its arguments, "" when
// c runs none.
func pythonModuleRun(c *Cmd) (string, []string) {
	if !strings.HasPrefix(c.Name, "python") && c.Name != "pypy3" {
		return "", nil
	}
	for i, a := range c.Args {
		if a == "-m" && i+1 < len(c.Args) {
			return c.Args[i+1], c.Args[i+2:]
		}
		if !strings.HasPrefix(a, "-") {
			return "", nil
		}
	}
	return "", nil
}

// scriptModuleLoad: inline code that loads one of the project's own
// modules (require('./scripts/x'), from scripts.x import, import
// tools.x): its text is in the project, not on the line.
var scriptModuleLoad = lazyre.New(`require\(\s*['"]\.{1,2}/|\bimport\(\s*['"]\.{1,2}/|\bfrom\s+['"]\.{1,2}/|(?m)(?:^|[;\s])from\s+(?:scripts|tools|src|app|lib|jobs|tasks|ops|bin)(?:\.\w+)+\s+import\b`)

func scriptSendRule() Rule {
	return Rule{ID: "external.systems:script-sends", Mode: Ask, Tools: shellTools, On: On(FactInterp | FactScriptPath),
		Desc: "A project's own script or module run with an option that says it sends, publishes or runs for real (python -m billing.notices --send, ./scripts/digest.sh --notify, node scripts/sync.js --no-dry-run, node -e \"require('./scripts/sync').run({dryRun: false})\"): the line does not show what it sends or changes, and people or a live service receive it; the option words are data (policy/remoteops.txt script-send-option, script-live-option)",
		Match: func(e *Env) string {
			if !strings.Contains(e.F.Command, "--") && !strings.Contains(strings.ToLower(e.F.Command), "dry") {
				return "" // the trigger: an option or a dry run on the line
			}
			for s := range e.scriptRuns() {
				if o := scriptSendOpt(s.args); o != "" {
					return s.path + " is asked to " + strings.TrimLeft(o, "-") + ", and what it sends or changes is not on the line: " + s.c.String()
				}
			}
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if onlyHelp(c) || e.dryRun(c) {
					continue
				}
				if m, args := pythonModuleRun(c); m != "" {
					if o := scriptSendOpt(args); o != "" {
						return "the project module " + m + " is asked to " + strings.TrimLeft(o, "-") + ", and what it sends or changes is not on the line: " + c.String()
					}
					continue
				}
				if t := runtimeText(c); t != "" && scriptDryRunOff.MatchString(t) && scriptModuleLoad.MatchString(t) {
					return c.Name + " code runs a project module with its dry run turned off, and what it changes is not on the line: " + c.String()
				}
			}
			return ""
		},
		Catch: []string{"python -m billing.notices --type shutoff --send", "python3 scripts/weekly_digest.py --notify", "./scripts/announce.sh --broadcast", "node scripts/sync-members.js --no-dry-run", "node -e \"require('./scripts/sync').run({ dryRun: false })\"", "python3 -m jobs.reminders --send-all", "ruby script/mailer.rb --deliver", "python3 tools/prune.py --dry-run=false"},
		Allow: []string{"python -m billing.notices --type shutoff", "python -m billing.notices --send --dry-run", "python3 scripts/weekly_digest.py --help", "node scripts/sync-members.js --dry-run", "node -e \"require('./scripts/sync').run({ dryRun: true })\"", "python3 -m pytest tests/ --notify=false", "python3 scripts/report.py --out x.csv", "python3 tools/notify.py --smtp-host mailhog --send"}}
}
