package callfacts

import (
	"path"
	"strings"
)

// What runs by name: a task runner's target or script is a name on the
// command line and commands in a file of the project. The runner's
// definition is read (rundefs.go, bounded) and each command it would run
// is read like any other shell code, in the definition's directory, with
// the runner as its wrapper ("npm run clean"), so every rule and the
// verdict table judge it and explain names the runner.

// runners are the programs whose commands live in a project file.
var runners = map[string]bool{"make": true, "gmake": true, "npm": true, "yarn": true, "pnpm": true, "bun": true,
	"just": true, "task": true, "go-task": true, "composer": true, "cargo": true}

// runnerWrapper reports whether a wrapper label names a runner's target
// ("npm run clean", "make clean"): explain says what it runs.
func runnerWrapper(w string) bool {
	name, _, ok := strings.Cut(w, " ")
	return ok && runners[name]
}

// runByName reads what runner c would run and walks it.
func (n *normalizer) runByName(c *Cmd, stdin *text, depth int, wrappers []string) {
	if c.DryRun() || c.Has("--help", "--version") || depth >= maxDepth {
		return
	}
	switch c.Name {
	case "make", "gmake":
		n.runMake(c, stdin, depth, wrappers)
	case "npm", "yarn", "pnpm", "bun":
		n.runPackageScripts(c, depth, wrappers)
	case "just":
		n.runJust(c, depth, wrappers)
	case "task", "go-task":
		n.runTask(c, depth, wrappers)
	case "composer":
		n.runComposer(c, depth, wrappers)
	case "cargo":
		n.runCargoAlias(c, depth, wrappers)
	}
}

// runDef walks one command of a definition as shell code run in dir,
// under the runner's label.
func (n *normalizer) runDef(label, code, dir string, depth int, wrappers []string) {
	if strings.TrimSpace(code) == "" {
		return
	}
	n.derive("%s runs %q", label, short(code))
	cwd := n.cwd
	n.cwd = dir
	n.shell(code, depth+1, append(append([]string(nil), wrappers...), label), nil)
	n.cwd = cwd // each command runs in its own shell: a cd in it does not leak
}

// runArgv walks one command a definition runs as an argument vector
// (a cargo alias's expansion, an interpreter script).
func (n *normalizer) runArgv(label string, argv []string, dir string, depth int, wrappers []string) {
	n.derive("%s runs %q", label, short(strings.Join(argv, " ")))
	cwd := n.cwd
	n.cwd = dir
	n.command(argv, false, nil, depth+1, append(append([]string(nil), wrappers...), label), nil)
	n.cwd = cwd
}

// optValue returns the value of option names in args ("-C dir",
// "-Cdir", "--directory=dir"), the last one given.
func optValue(args []string, names ...string) string {
	v := ""
	for i, a := range args {
		if a == "--" {
			break
		}
		for _, o := range names {
			switch {
			case a == o && i+1 < len(args):
				v = args[i+1]
			case strings.HasPrefix(o, "--") && strings.HasPrefix(a, o+"="):
				v = a[len(o)+1:]
			case len(o) == 2 && o[1] != '-' && len(a) > 2 && strings.HasPrefix(a, o) && !strings.HasPrefix(a, "--"):
				v = a[2:]
			}
		}
	}
	return v
}

// runnerDir is the directory a runner works in: cwd, or the value of
// its directory option.
func (n *normalizer) runnerDir(c *Cmd, opts ...string) string {
	if d := optValue(c.Args, opts...); d != "" {
		return NormPath(d, n.cwd, n.home)
	}
	return n.cwd
}

// positionals are c's arguments that are not options nor the values of
// the options in withValue, up to "--"; rest is what follows "--".
func positionals(args []string, withValue ...string) (pos, rest []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return pos, args[i+1:]
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for _, o := range withValue {
				if a == o {
					i++
					break
				}
			}
		default:
			pos = append(pos, a)
		}
	}
	return pos, nil
}

// defDir is the directory of a definition file.
func defDir(p string) string { return path.Dir(p) }

// quoteArgs joins extra arguments a runner passes on to a script.
func quoteArgs(args []string) string {
	var b strings.Builder
	for _, a := range args {
		b.WriteString(" '")
		b.WriteString(strings.ReplaceAll(a, "'", `'\''`))
		b.WriteByte('\'')
	}
	return b.String()
}
