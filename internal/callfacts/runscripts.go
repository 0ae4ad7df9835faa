package callfacts

import (
	"encoding/json"
	"strings"
)

// Package scripts: npm, yarn, pnpm and bun run the "scripts" of the
// nearest package.json (with npm's pre and post hooks); composer runs the
// "scripts" of composer.json, whose entries may name other scripts
// (@name), php (@php) or composer (@composer).

// pkgBuiltins are each package manager's own commands: `yarn add` is
// yarn's, `yarn clean` runs the script "clean".
var pkgBuiltins = map[string]string{
	"yarn": " add install remove upgrade up init info list why config cache global link unlink pack publish login logout version versions audit outdated bin dlx exec node workspaces workspace set plugin dedupe explain npm constraints rebuild patch unplug import licenses owner tag team check autoclean create help policies ",
	"pnpm": " add install i update up upgrade remove rm uninstall un link ln unlink import rebuild rb prune fetch patch patch-commit audit list ls outdated why exec dlx create publish pack init store env setup server config root bin licenses deploy doctor recursive -r help ",
	"bun":  " install i add a remove rm update link unlink pm build test x create init upgrade repl exec publish outdated patch help ",
}

// npmLifecycle are the scripts npm runs for a command of its own.
var npmLifecycle = map[string][]string{
	"test": {"pretest", "test", "posttest"}, "t": {"pretest", "test", "posttest"}, "tst": {"pretest", "test", "posttest"},
	"start": {"prestart", "start", "poststart"}, "stop": {"prestop", "stop", "poststop"},
	"restart": {"prerestart", "restart", "postrestart"},
	"install": {"preinstall", "install", "postinstall", "prepare"}, "i": {"preinstall", "install", "postinstall", "prepare"},
	"ci": {"preinstall", "install", "postinstall", "prepare"}, "pack": {"prepack", "prepare", "postpack"},
	"publish": {"prepublishOnly", "prepack", "prepare", "postpack", "publish", "postpublish"},
}

// runPackageScripts walks the package.json scripts `npm run X`, `npm
// test`, `yarn X`, `pnpm X`, `bun run X` or an install would run.
func (n *normalizer) runPackageScripts(c *Cmd, depth int, wrappers []string) {
	pos, rest := positionals(c.Args, "--prefix", "-C", "--dir", "--cwd", "-w", "--workspace", "--filter", "-F")
	if len(pos) == 0 && c.Name != "yarn" {
		return
	}
	var names []string // scripts in the order they run
	label := c.Name
	bin := "" // yarn/pnpm/bun X: the package binary X when no script is named X
	switch sub := ""; {
	case len(pos) == 0: // bare yarn installs
		names, label = npmLifecycle["install"], "yarn install"
	default:
		sub = pos[0]
		switch {
		case sub == "run" || sub == "run-script" || sub == "rum" || sub == "urn":
			if len(pos) < 2 {
				return
			}
			s := pos[1]
			names, label = []string{"pre" + s, s, "post" + s}, c.Name+" run "+s
			rest = append(pos[2:], rest...)
		case (sub == "install" || sub == "i" || sub == "ci" || sub == "add") && len(pos) > 1:
			return // installs named packages: their own scripts, not the project's
		case npmLifecycle[sub] != nil && (c.Name == "npm" || sub != "publish" && sub != "pack") && !(c.Name == "bun" && sub == "test"):
			names, label = npmLifecycle[sub], c.Name+" "+sub
			rest = append(pos[1:], rest...)
		case c.Name != "npm" && !strings.Contains(pkgBuiltins[c.Name], " "+sub+" "):
			names, label = []string{"pre" + sub, sub, "post" + sub}, c.Name+" "+sub
			rest = append(pos[1:], rest...)
			if binName(sub) {
				bin = sub
			}
		default:
			return
		}
	}
	dir := n.runnerDir(c, "--prefix", "-C", "--dir", "--cwd")
	file, t, ok := n.findDef(dir, true, "package.json")
	if !ok {
		// no package.json to read: X may be a script not on disk or a
		// binary; the binary is read as "yarn exec X", which says so
		n.runPackageBin(c, bin, c.Name+" exec "+bin, dir, depth, wrappers)
		return
	}
	if !t.known {
		return
	}
	var pkg struct {
		Scripts map[string]any `json:"scripts"`
	}
	if json.Unmarshal([]byte(t.s), &pkg) != nil {
		return
	}
	if s, _ := pkg.Scripts[bin].(string); bin != "" && s == "" {
		n.runPackageBin(c, bin, c.Name+" "+bin, dir, depth, wrappers)
		return
	}
	for i, name := range names {
		s, _ := pkg.Scripts[name].(string)
		if s == "" {
			continue
		}
		if len(names) == 3 && i == 1 {
			s += quoteArgs(rest) // arguments go to the script itself
		}
		n.runDef(label+scriptNote(name, label), s, defDir(file), depth, wrappers)
	}
}

// runPackageBin walks `yarn X …`, `pnpm X …` or `bun X …` when X is no
// script of package.json: the manager runs the package binary X
// (node_modules/.bin/X) with the words after it, so yarn hardhat run
// --network mainnet x.js is judged as hardhat run --network mainnet x.js.
// The manager's own options before X (--cwd, --filter) are set aside.
// pnpm and bun binaries envrun.txt names (pnpm turbo …) are read there.
func (n *normalizer) runPackageBin(c *Cmd, bin, label, dir string, depth int, wrappers []string) {
	if bin == "" {
		return
	}
	if in, _ := envRunInner(c.Name, c.Args); len(in) > 0 {
		return
	}
	for i, a := range c.Args {
		if a == bin {
			n.runArgv(label, c.Args[i:], dir, depth, wrappers)
			return
		}
	}
}

// binName: a word that can name a package's binary (hardhat, tsc,
// prisma), not a file (bun ./x.ts, bun index.ts) or an expansion.
func binName(w string) bool {
	return w != "" && !strings.ContainsAny(w, "/.$=`\\") && w[0] != '-'
}

// scriptNote names a hook script in the label ("npm run build
// (prebuild)") when it is not the one asked for.
func scriptNote(name, label string) string {
	if strings.HasSuffix(label, " "+name) {
		return ""
	}
	return " (" + name + ")"
}

// composerBuiltins are composer's own commands.
const composerBuiltins = " about archive audit browse home bump check-platform-reqs clear-cache clearcache config create-project depends why diagnose dump-autoload dumpautoload exec fund global help init install i licenses list outdated prohibits why-not reinstall remove rm require r run-script run search self-update selfupdate show info status suggests update u upgrade validate "

// composerEvents are the scripts composer runs for its own commands.
var composerEvents = map[string][]string{
	"install":       {"pre-install-cmd", "pre-autoload-dump", "post-autoload-dump", "post-install-cmd"},
	"update":        {"pre-update-cmd", "pre-autoload-dump", "post-autoload-dump", "post-update-cmd"},
	"dump-autoload": {"pre-autoload-dump", "post-autoload-dump"}, "dumpautoload": {"pre-autoload-dump", "post-autoload-dump"},
	"create-project": {"post-root-package-install", "post-create-project-cmd"},
}

// runComposer walks the composer.json scripts `composer run X`,
// `composer X` or an install would run.
func (n *normalizer) runComposer(c *Cmd, depth int, wrappers []string) {
	pos, rest := positionals(c.Args, "-d", "--working-dir")
	if len(pos) == 0 {
		return
	}
	var names []string
	sub := pos[0]
	switch {
	case sub == "run-script" || sub == "run":
		if len(pos) < 2 {
			return
		}
		names, rest = []string{pos[1]}, append(pos[2:], rest...)
	case sub == "i" || sub == "u" || sub == "upgrade":
		names = composerEvents[map[string]string{"i": "install", "u": "update", "upgrade": "update"}[sub]]
	case composerEvents[sub] != nil:
		if (sub == "update" || sub == "create-project") && len(pos) > 1 {
			return
		}
		names = composerEvents[sub]
	case !strings.Contains(composerBuiltins, " "+sub+" "):
		names, rest = []string{sub}, append(pos[1:], rest...)
	default:
		return
	}
	dir := n.runnerDir(c, "-d", "--working-dir")
	file, t, ok := n.findDef(dir, false, "composer.json")
	if !ok || !t.known {
		return
	}
	var cj struct {
		Scripts map[string]any `json:"scripts"`
	}
	if json.Unmarshal([]byte(t.s), &cj) != nil {
		return
	}
	seen := map[string]bool{}
	var run func(name, label string, args []string, level int)
	run = func(name, label string, args []string, level int) {
		if seen[name] || level > 8 {
			return
		}
		seen[name] = true
		var entries []string
		switch v := cj.Scripts[name].(type) {
		case string:
			entries = []string{v}
		case []any:
			for _, e := range v {
				if s, ok := e.(string); ok {
					entries = append(entries, s)
				}
			}
		}
		for _, e := range entries {
			switch {
			case strings.HasPrefix(e, "@php "):
				e = "php " + e[5:]
			case strings.HasPrefix(e, "@composer "):
				e = "composer " + e[10:]
			case strings.HasPrefix(e, "@putenv "):
				continue
			case strings.HasPrefix(e, "@"):
				run(strings.Fields(e[1:])[0], label, nil, level+1)
				continue
			case strings.Contains(e, "::") && !strings.ContainsAny(e, " \t"):
				continue // a PHP callback: code the line does not show
			}
			n.runDef(label, e+quoteArgs(args), defDir(file), depth, wrappers)
		}
	}
	for _, name := range names {
		run(name, "composer "+name, rest, 0)
	}
}
