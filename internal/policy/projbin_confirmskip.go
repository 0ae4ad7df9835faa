package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A project's own program (run by its path: ./listmonk, bin/server,
// target/release/app) given an option that sets up, upgrades, migrates,
// reseeds or restores what it stores (--install, --upgrade, --migrate,
// --seed, --restore) together with the option that skips its
// confirmation (--yes, -y, --force, --no-input): the program asks before
// it rewrites its database because the step can lose data, and the line
// answers for the user. With a configuration, an environment or a
// target named for production it is denied (listmonk --install --yes
// --config config.prod.toml re-creates the live schema); elsewhere it
// asks. Without the skip the program asks the user itself; system
// programs and the tools the tables know (a virtualenv's pip, a
// package's node_modules/.bin tool) are read by their own lines.

// projBinStateOpts: options that rewrite what the program stores.
var projBinStateOpts = []string{"--install", "--upgrade", "--migrate", "--init-db", "--initdb", "--db-init", "--setup", "--seed", "--restore", "--import", "--reinstall", "--reset-db", "--recreate"}

// projBinConfirmSkips: options that answer the program's confirmation.
var projBinConfirmSkips = []string{"--yes", "-y", "--force", "--assume-yes", "--no-confirm", "--noconfirm", "--non-interactive", "--noinput", "--no-input", "--auto-approve", "--unattended"}

// projectPathRun: argv[0] is a path in the project (./x, ../x, bin/x),
// not a system program's.
func projectPathRun(raw string) bool {
	if strings.HasPrefix(raw, "./") || strings.HasPrefix(raw, "../") {
		return true
	}
	return strings.Contains(raw, "/") && !strings.HasPrefix(raw, "/") && !strings.HasPrefix(raw, "~") && !strings.HasPrefix(raw, "$")
}

// projBinConfirmSkip judges the line: "deny" on production, "ask"
// elsewhere, with why.
func projBinConfirmSkip(e *Env) (string, string) {
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if !projectPathRun(c.Raw) || callfacts.Known(c.Name) || strings.Contains(c.Raw, "venv/") || strings.Contains(c.Raw, "node_modules/") || !c.Has(projBinStateOpts...) || !c.Has(projBinConfirmSkips...) || onlyHelp(c) || e.dryRun(c) {
			continue
		}
		for _, a := range c.Args {
			if prodWord.MatchString(a) && !callfacts.UnknownValue(a) {
				return "deny", c.Name + " rewrites what it stores with its confirmation answered, on production (" + a + "): " + c.String()
			}
		}
		return "ask", c.Name + " rewrites what it stores with its confirmation answered: " + c.String()
	}
	return "", ""
}

// projBinTrigger: the rules run only when a state option is on the line.
var projBinTrigger = On(0).OrText("--install", "--upgrade", "--migrate", "--init", "--db-init", "--setup", "--seed", "--restore", "--import", "--reinstall", "--reset-db", "--recreate")

func projBinConfirmSkipRules() []Rule {
	level := func(want string) func(e *Env) string {
		return func(e *Env) string {
			if l, why := projBinConfirmSkip(e); l == want {
				return why
			}
			return ""
		}
	}
	return []Rule{
		{ID: "external.systems:project-binary-confirm-skip-prod", Mode: Deny, Tools: shellTools, On: projBinTrigger, Match: level("deny"),
			Desc:  "A project's own program run by its path with an option that sets up, upgrades, migrates, seeds or restores what it stores (--install, --upgrade, --migrate), the option that answers its confirmation (--yes, -y, --force) and a configuration, environment or target named for production: the step it warns about may lose the live data",
			Catch: []string{"./mattermost --upgrade --yes --config conf/prod.json", "bin/server --migrate --force --env production", "./build/shop --seed -y --config=settings.prd.yaml"},
			Allow: []string{"./mattermost --upgrade --config conf/prod.json", "bin/server --migrate --force --env staging", "./build/shop --seed --help --config=settings.prd.yaml"}},
		{ID: "external.systems:project-binary-confirm-skip", Mode: Ask, Tools: shellTools, On: projBinTrigger, Match: level("ask"),
			Desc:  "A project's own program run by its path with an option that sets up, upgrades, migrates, seeds or restores what it stores (--install, --upgrade, --migrate) and the option that answers its confirmation (--yes, -y, --force): the step it warns about may lose data, and the line answers for the user",
			Catch: []string{"./gitea-setup --install --yes", "bin/server --migrate --force --env staging", "./target/release/app --seed -y"},
			Allow: []string{"./listmonk --install", "./app --version", "bin/server --migrate --dry-run --yes", "sudo apt-get install -y jq", "./gradlew build --no-input"}},
	}
}
