package callfacts

import (
	"strings"
)

// A justfile read enough to know what `just [recipe [args…]]` runs:
// recipes with their parameters, dependencies and body lines, variables
// set to string literals, and aliases. {{name}} takes a variable's or a
// parameter's value; an expression it cannot know becomes a shell
// variable the line does not know.

type justRecipe struct {
	params []string
	deps   []string
	body   []string
}

type justfile struct {
	vars    map[string]string
	aliases map[string]string
	recipes map[string]*justRecipe
	first   string
}

func parseJustfile(s string) *justfile {
	j := &justfile{vars: map[string]string{}, aliases: map[string]string{}, recipes: map[string]*justRecipe{}}
	var cur *justRecipe
	for _, line := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		if line != "" && (line[0] == ' ' || line[0] == '\t') {
			if cur != nil {
				cur.body = append(cur.body, strings.TrimSpace(line))
			}
			continue
		}
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' || t[0] == '[' {
			if t != "" {
				cur = nil
			}
			continue
		}
		cur = nil
		if rest, ok := strings.CutPrefix(t, "alias "); ok {
			if k, v, ok := strings.Cut(rest, ":="); ok {
				j.aliases[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
			continue
		}
		if strings.HasPrefix(t, "set ") || strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "mod ") {
			continue
		}
		if k, v, ok := strings.Cut(strings.TrimPrefix(t, "export "), ":="); ok && !strings.ContainsAny(strings.TrimSpace(k), " :") {
			j.vars[strings.TrimSpace(k)] = justValue(strings.TrimSpace(v))
			continue
		}
		head, deps, ok := strings.Cut(t, ":")
		if !ok {
			continue
		}
		f := strings.Fields(strings.TrimPrefix(head, "@"))
		if len(f) == 0 {
			continue
		}
		r := &justRecipe{}
		for _, p := range f[1:] {
			p = strings.TrimLeft(p, "+*$")
			if k, _, ok := strings.Cut(p, "="); ok {
				p = k
			}
			r.params = append(r.params, p)
		}
		for _, d := range strings.Fields(strings.NewReplacer("(", " ", ")", " ", "&&", " ").Replace(deps)) {
			if !strings.ContainsAny(d, "'\"") {
				r.deps = append(r.deps, d)
			}
		}
		j.recipes[f[0]] = r
		if j.first == "" {
			j.first = f[0]
		}
		cur = r
	}
	return j
}

// justValue is a variable's value when it is a string literal; a
// backtick runs a command, kept as $(…); anything else is unknown.
func justValue(v string) string {
	switch {
	case len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0]:
		return v[1 : len(v)-1]
	case len(v) >= 2 && v[0] == '`' && v[len(v)-1] == '`':
		return "$(" + v[1:len(v)-1] + ")"
	}
	return "${JUST_EXPR}"
}

// interpolate fills {{…}} from the recipe's arguments and the file's
// variables.
func (j *justfile) interpolate(s string, args map[string]string) string {
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			return s
		}
		end := strings.Index(s[i:], "}}")
		if end < 0 {
			return s
		}
		name := strings.TrimSpace(s[i+2 : i+end])
		v, ok := args[name]
		if !ok {
			v, ok = j.vars[name]
		}
		if !ok {
			v = "${JUST_EXPR}"
		}
		s = s[:i] + v + s[i+end+2:]
	}
}

// runJust walks what `just [recipe [args…]]` would run.
func (n *normalizer) runJust(c *Cmd, depth int, wrappers []string) {
	if c.Has("-l", "--list", "--summary", "--show", "-s", "--dump", "--evaluate", "--variables", "--choose", "--edit", "-e", "--init", "--fmt") {
		return
	}
	pos, _ := positionals(c.Args, "-f", "--justfile", "-d", "--working-directory", "--set", "--shell", "--shell-arg", "--dotenv-filename", "--dotenv-path", "--color", "--command", "-c")
	var file string
	var t text
	var ok bool
	if f := optValue(c.Args, "-f", "--justfile"); f != "" {
		file = NormPath(f, n.cwd, n.home)
		t, ok = n.defText(file)
	} else {
		file, t, ok = n.findDef(n.cwd, true, "justfile", "Justfile", ".justfile", "JUSTFILE")
	}
	if !ok || !t.known {
		return
	}
	j := parseJustfile(t.s)
	dir := defDir(file)
	if d := optValue(c.Args, "-d", "--working-directory"); d != "" {
		dir = NormPath(d, n.cwd, n.home)
	}
	for _, p := range pos {
		if k, v, ok := strings.Cut(p, "="); ok && !strings.Contains(k, "/") {
			j.vars[k] = v // just NAME=value overrides a variable
		}
	}
	var args []string
	for _, p := range pos {
		if !strings.Contains(p, "=") || strings.Contains(p, "/") {
			args = append(args, p)
		}
	}
	name := j.first
	if _, ok := j.recipes["default"]; ok {
		name = "default"
	}
	if len(args) > 0 {
		name, args = args[0], args[1:]
	}
	seen := map[string]bool{}
	var run func(name string, args []string, level int)
	run = func(name string, args []string, level int) {
		if a, ok := j.aliases[name]; ok {
			name = a
		}
		r := j.recipes[name]
		if r == nil || seen[name] || level > 16 || len(seen) >= maxMakeTargets {
			return
		}
		seen[name] = true
		for _, d := range r.deps {
			run(d, nil, level+1)
		}
		vals := map[string]string{}
		for i, p := range r.params {
			if i < len(args) {
				vals[p] = args[i]
			}
		}
		label := "just " + name
		if len(r.body) > 0 && strings.HasPrefix(r.body[0], "#!") {
			prog := ProgramName(strings.Fields(r.body[0][2:] + " x")[0])
			if prog == "env" {
				prog = strings.Fields(r.body[0][2:] + " x x")[1]
			}
			body := j.interpolate(strings.Join(r.body[1:], "\n"), vals)
			switch {
			case IsShell(prog):
				n.runDef(label, body, dir, depth, wrappers)
			case IsInterpreter(prog) && len(interpFlags(prog)) > 0:
				n.runArgv(label, []string{prog, interpFlags(prog)[0], body}, dir, depth, wrappers)
			}
			return
		}
		for _, line := range r.body {
			if strings.HasPrefix(line, "#") {
				continue
			}
			n.runDef(label, j.interpolate(strings.TrimLeft(line, "@-"), vals), dir, depth, wrappers)
		}
	}
	run(name, args, 0)
}
