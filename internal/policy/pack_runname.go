package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// runNameRules: a task runner asked to run a target whose definition is
// not on disk, so what it runs cannot be read (runners.go reads it when it
// is): the target's name and the variables given are what is left to
// judge (a target named for shipping: external.systems:deploy-task). A project program pointed at the home directory with a flag that
// makes it act is judged the same way.
func runNameRules() []Rule {
	runnersNamed := taskRunnerNames()
	return []Rule{
		localRule("core.local:run-name-destroy", Deny, "A task runner target named for destroying (drop, destroy, nuke, wipe, purge, teardown, reset) aimed at production, or a clean target given a variable that points at the home directory or a system path, when its definition is not on disk to read", runnersNamed,
			func(e *Env, c *Cmd) string {
				t, vars := runTarget(e, c)
				if t == "" {
					return ""
				}
				if (nameHas(t, destroyWords) || len(vars) > 0 && cleanWords[strings.ToLower(t)]) && definitionRead(e, c) {
					return ""
				}
				if nameHas(t, destroyWords) && (nameHas(t, prodWords) || nameHas(strings.Join(vars, " "), prodWords)) {
					return c.Name + " runs " + t + " against production, and its definition is not on disk to read"
				}
				if len(vars) > 0 && (nameHas(t, destroyWords) || cleanWords[strings.ToLower(t)]) {
					for _, v := range vars {
						_, val, _ := strings.Cut(v, "=")
						if val == "" || !strings.HasPrefix(val, "/") && !strings.HasPrefix(val, "~") && !strings.HasPrefix(val, "$HOME") {
							continue
						}
						p := e.abs(c, val)
						switch callfacts.ZoneOf(p, e.F.Home, e.F.Project) {
						case callfacts.ZoneSystem, callfacts.ZoneHomeData, callfacts.ZoneHomeConfig, callfacts.ZoneCredentials, callfacts.ZoneElsewhere, callfacts.ZoneShared:
							return c.Name + " " + t + " is given " + v + ": a clean target pointed outside the project"
						}
						if p == e.F.Home || p == "/" {
							return c.Name + " " + t + " is given " + v + ": a clean target pointed at the home directory or /"
						}
					}
				}
				return ""
			},
			[]string{"task db:drop ENV=production", "make clean BUILD_DIR=/srv/www", "just nuke-prod", "make destroy STAGE=prod", "make clean OUT=$HOME"},
			[]string{"make clean", "task db:drop ENV=test", "make clean BUILD_DIR=./build", "just reset-dev", "make clean OUT=/tmp/build"}),
		{ID: "core.local:link-then-run", Mode: Ask, Tools: shellTools, Cmds: []string{"ln"},
			Desc:  "A symbolic link in the project to a system, credential or config file, then a command that runs code the line does not show (a runner's target, a script): what it writes to the project path lands in /etc/hosts, ~/.ssh/…",
			Match: linkThenRun,
			Catch: []string{"ln -sfn /etc/hosts ./reports/out.txt && npm run report", "ln -s ~/.ssh/authorized_keys out/keys.txt; make export", "ln -sf ~/.bashrc build/log.txt && ./scripts/gen.sh"},
			Allow: []string{"ln -s ../shared/config.json config.json && npm run build", "ln -sfn /etc/hosts ./hosts.txt && cat hosts.txt", "ln -s $(pwd)/bin/tool ~/bin/tool"}},
		localRule("core.local:project-program-home", Ask, "A project's own program run over the home directory or / with a flag that makes it act (go run ./cmd/cleanup --root=$HOME --apply, cargo run -- --dir ~ --force)", []string{"go", "cargo", "python", "python3", "node", "deno", "bun", "ruby", "dotnet"},
			func(e *Env, c *Cmd) string {
				if (c.Name == "go" || c.Name == "cargo" || c.Name == "dotnet") && sub(c) != "run" {
					return ""
				}
				act, wide := false, ""
				for _, a := range c.Args {
					k, v, hasV := strings.Cut(a, "=")
					switch strings.ToLower(k) {
					case "--apply", "--force", "-f", "--yes", "-y", "--delete", "--execute", "--commit", "--no-dry-run", "--confirm", "--prune", "--fix", "--write":
						act = true
					}
					if !hasV {
						v = a
					}
					if v == "~" || v == "~/" || v == "$HOME" || v == "${HOME}" || v == "/" || v == e.F.Home || v == `C:\` {
						wide = a
					}
				}
				if act && wide != "" {
					return c.Name + " runs a program over " + wide + " with a flag that makes it act: " + c.String()
				}
				return ""
			},
			[]string{"go run ./cmd/cleanup --root=$HOME --apply", "cargo run -- --dir ~ --force", "python3 scripts/dedupe.py --path / --delete", "node tools/prune.js $HOME --yes"},
			[]string{"go run ./cmd/cleanup --root=$HOME", "go run ./cmd/cleanup --root=./tmp --apply", "cargo run -- --help", "python3 scripts/report.py ~"}),
	}
}

// Words of a target's name (split at - _ : . /) that say what it does.
var (
	destroyWords = wordSet("drop", "destroy", "nuke", "wipe", "purge", "teardown", "reset", "truncate", "obliterate")
	cleanWords   = wordSet("clean", "distclean", "clobber", "mrproper", "realclean", "cleanall")
	prodWords    = wordSet("prod", "production", "live", "prd")
)

func wordSet(ws ...string) map[string]bool {
	m := map[string]bool{}
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// nameHas reports whether one of name's words (split at - _ : . / = and
// spaces, lower case) is in set.
func nameHas(name string, set map[string]bool) bool {
	start := 0
	for i := 0; i <= len(name); i++ {
		if i == len(name) || strings.IndexByte("-_:./= ", name[i]) >= 0 {
			if i > start && set[strings.ToLower(name[start:i])] {
				return true
			}
			start = i + 1
		}
	}
	return false
}

// runTarget is the target a runner is asked to run and the variables
// given (make X V=1, npm run X, just X, task X), "" when there is none.
func runTarget(e *Env, c *Cmd) (string, []string) {
	if len(c.Pos) == 0 || c.Has("-n", "--just-print", "--recon", "-l", "--list") {
		return "", nil
	}
	var vars []string
	for _, p := range c.Pos {
		if strings.IndexByte(p, '=') >= 0 {
			vars = append(vars, p)
		}
	}
	t := ""
	if ts := runnerTasks(c); len(ts) > 0 { // taskrunners.txt
		t = ts[0]
	}
	return t, vars
}

// definitionRead reports whether the reading found c's definition on
// disk: the commands it runs are then in the facts, under its label, and
// judged like any other. "yarn exec X" is not a definition: with no
// package.json to read, yarn X is read as the binary X as well, and the
// script it may be stays unknown.
func definitionRead(e *Env, c *Cmd) bool {
	for i := range e.F.Commands {
		for _, w := range e.F.Commands[i].Wrappers {
			if len(w) > len(c.Name) && w[len(c.Name)] == ' ' && strings.HasPrefix(w, c.Name) && !strings.HasPrefix(w[len(c.Name):], " exec ") {
				return true
			}
		}
	}
	return false
}

var yarnBuiltin = map[string]bool{"install": true, "add": true, "remove": true, "upgrade": true, "publish": true, "info": true, "init": true, "why": true, "link": true, "unlink": true, "list": true, "outdated": true, "cache": true, "config": true, "global": true, "dlx": true, "workspace": true, "workspaces": true, "set": true, "npm": true}

// linkThenRun: ln -s of a sensitive file into the project or a scratch
// directory, followed in the line by a command whose writes are not shown.
func linkThenRun(e *Env) string {
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c.Name != "ln" || !c.Has("-s", "--symbolic") || len(c.Pos) < 2 {
			continue
		}
		target, link := e.abs(c, c.Pos[0]), e.abs(c, c.Pos[len(c.Pos)-1])
		switch callfacts.ZoneOf(target, e.F.Home, e.F.Project) {
		case callfacts.ZoneSystem, callfacts.ZoneCredentials, callfacts.ZoneHomeConfig, callfacts.ZoneWarden, callfacts.ZoneAgent:
		default:
			continue
		}
		switch callfacts.ZoneOf(link, e.F.Home, e.F.Project) {
		case callfacts.ZoneProject, callfacts.ZoneRepo, callfacts.ZoneTemp:
		default:
			continue
		}
		for j := i + 1; j < len(e.F.Commands); j++ {
			d := &e.F.Commands[j]
			if d.Effect == callfacts.EffectRun || runnerNames[d.Name] || strings.HasPrefix(d.Raw, "./") {
				return "the line links " + c.Pos[len(c.Pos)-1] + " to " + homeRel(target, e.F.Home) + ", then " + d.Name + " runs code that may write through it"
			}
		}
	}
	return ""
}

var runnerNames = map[string]bool{"make": true, "gmake": true, "npm": true, "yarn": true, "pnpm": true, "bun": true, "just": true, "task": true, "go-task": true, "composer": true, "cargo": true, "go": true, "gradle": true, "./gradlew": true, "mvn": true, "rake": true, "mage": true}
