package callfacts

import (
	"strings"
)

// A makefile read enough to know what `make [target…]` runs: simple
// variables, rules with their prerequisites and recipe lines. Recipes of
// the targets asked for (the first target when none is) and of their
// prerequisites, recursively to maxMakeTargets, are walked as shell code
// with make's variables expanded; a reference make would fill from
// elsewhere stays a shell variable, unknown.

// maxMakeTargets bounds the targets followed for one make.
const maxMakeTargets = 64

type makefile struct {
	vars    map[string]string
	rules   map[string]*makeRule
	first   string
	ordered []*makeRule // every rule in file order (a written makefile's fallback)
}

type makeRule struct {
	name    string
	prereqs []string
	recipe  []string
}

// parseMakefile reads rules, recipes and variables; conditionals and
// includes are not followed.
func parseMakefile(s string) *makefile {
	m := &makefile{vars: map[string]string{}, rules: map[string]*makeRule{}}
	var cur []*makeRule
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		for strings.HasSuffix(line, "\\") && i+1 < len(lines) {
			i++
			line = line[:len(line)-1] + " " + strings.TrimLeft(lines[i], " \t")
		}
		if strings.HasPrefix(line, "\t") {
			for _, r := range cur {
				r.recipe = append(r.recipe, line[1:])
			}
			continue
		}
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' {
			continue
		}
		t = strings.TrimPrefix(strings.TrimPrefix(t, "export "), "override ")
		if k, v, ok := makeAssign(t); ok {
			m.vars[k] = v
			cur = nil
			continue
		}
		head, body, ok := strings.Cut(t, ":")
		if !ok || strings.ContainsAny(head, "=") {
			cur = nil
			continue
		}
		body = strings.TrimPrefix(body, ":") // double-colon rules
		var recipe string
		if b, r, ok := strings.Cut(body, ";"); ok {
			body, recipe = b, r
		}
		if strings.Contains(body, "=") { // target-specific variable
			cur = nil
			continue
		}
		cur = nil
		for _, name := range strings.Fields(head) {
			r := m.rules[name]
			if r == nil {
				r = &makeRule{name: name}
				m.rules[name] = r
				m.ordered = append(m.ordered, r)
			}
			r.prereqs = append(r.prereqs, strings.Fields(strings.ReplaceAll(body, "|", " "))...)
			if recipe != "" {
				r.recipe = append(r.recipe, recipe)
			}
			cur = append(cur, r)
			if m.first == "" && !strings.HasPrefix(name, ".") && !strings.Contains(name, "%") {
				m.first = name
			}
		}
	}
	return m
}

// makeAssign splits "NAME = value" (also :=, ::=, ?=, +=).
func makeAssign(t string) (string, string, bool) {
	i := strings.IndexByte(t, '=')
	if i <= 0 {
		return "", "", false
	}
	k := t[:i]
	if c := strings.IndexByte(k, ':'); c >= 0 && strings.Trim(k[c:], ":") != "" {
		return "", "", false // a rule whose prerequisites hold an "="
	}
	add := strings.HasSuffix(k, "+")
	k = strings.TrimSpace(strings.TrimRight(k, ":?+!"))
	if k == "" || strings.ContainsAny(k, " \t$") {
		return "", "", false
	}
	v := strings.TrimSpace(t[i+1:])
	_ = add // += appends; the value alone is what a reader can know
	return k, v, true
}

// expand fills make's references in s: $(VAR), ${VAR}, $@, $<, $^, $$,
// $(shell cmd) as $(cmd). A variable the file does not define becomes
// a shell variable the line does not know.
func (m *makefile) expand(s string, r *makeRule, depth int) string {
	if !strings.Contains(s, "$") || depth > 8 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case '$':
			b.WriteByte('$')
		case '@':
			b.WriteString(r.name)
		case '<':
			if len(r.prereqs) > 0 {
				b.WriteString(r.prereqs[0])
			}
		case '^', '+', '?':
			b.WriteString(strings.Join(r.prereqs, " "))
		case '(', '{':
			end := closing(s, i)
			if end < 0 {
				b.WriteString(s[i-1:])
				return b.String()
			}
			ref := s[i+1 : end]
			i = end
			b.WriteString(m.ref(ref, r, depth))
		default:
			b.WriteString("${MAKE_" + string(c) + "}")
		}
	}
	return b.String()
}

// ref is the value of one $(…) reference.
func (m *makefile) ref(ref string, r *makeRule, depth int) string {
	fn, arg, isFn := strings.Cut(ref, " ")
	switch {
	case isFn && fn == "shell":
		return "$(" + m.expand(arg, r, depth+1) + ")"
	case isFn && (fn == "wildcard" || fn == "strip" || fn == "abspath" || fn == "realpath"):
		return m.expand(strings.TrimSpace(arg), r, depth+1)
	case isFn:
		return "${MAKE_FN}"
	case ref == "MAKE":
		return "make"
	case ref == "RM":
		return "rm -f"
	case ref == "CURDIR":
		return "."
	}
	if v, ok := m.vars[ref]; ok {
		return m.expand(v, r, depth+1)
	}
	return "${" + shellName(ref) + "}"
}

// closing finds the bracket closing s[i], counting nested ones.
func closing(s string, i int) int {
	open, shut := s[i], byte(')')
	if open == '{' {
		shut = '}'
	}
	level := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case open:
			level++
		case shut:
			level--
			if level == 0 {
				return j
			}
		}
	}
	return -1
}

// shellName makes a make variable name a valid shell one.
func shellName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' && i > 0) {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "MAKE_VAR"
	}
	return string(b)
}

// makeFlagsWithValue are make's options that take a separate value
// (-j and -l take one only when it is a number: a target is no value).
var makeFlagsWithValue = []string{"-C", "-f", "-I", "-o", "-W", "--file", "--makefile", "--directory", "--include-dir", "--old-file", "--what-if", "--assume-old", "--assume-new", "--new-file"}

// runMake walks what `make [target…]` would run: the recipes of the
// makefile the line wrote or that is on disk (GNUmakefile, makefile,
// Makefile in -C's directory).
func (n *normalizer) runMake(c *Cmd, stdin *text, depth int, wrappers []string) {
	if c.Has("-q", "--question", "-p", "--print-data-base") && !c.Has("-f") {
		return
	}
	dir := n.runnerDir(c, "-C", "--directory")
	var mk text
	var file string
	var ok bool
	if f := optValue(c.Args, "-f", "--file", "--makefile"); f != "" {
		if f == "-" || f == "/dev/stdin" {
			if stdin == nil {
				return
			}
			mk, ok, file = *stdin, true, "-"
		} else {
			file = NormPath(f, dir, n.home)
			mk, ok = n.defText(file)
		}
	} else {
		file, mk, ok = n.findDef(dir, false, "GNUmakefile", "makefile", "Makefile")
	}
	if !ok {
		return
	}
	if !mk.known {
		c.FeedUnknown = true // a makefile the line fetched or built (nothing appended yet: c is current)
		if c.Feed == "" {
			c.Feed = mk.from // make -f <(curl …): the rules come from the network
		}
		return
	}
	_, written := n.files[file]
	written = written || file == "-"
	m := parseMakefile(mk.s)
	pos, _ := positionals(c.Args, makeFlagsWithValue...)
	var targets []string
	for _, p := range pos {
		if k, v, ok := strings.Cut(p, "="); ok {
			m.vars[strings.TrimRight(k, ":")] = v // make VAR=value overrides the file
			continue
		}
		targets = append(targets, p)
	}
	if len(targets) == 0 && m.first != "" {
		targets = []string{m.first}
	}
	seen := map[string]bool{}
	ran := false
	var walk func(name string, level int)
	walk = func(name string, level int) {
		r := m.rules[name]
		if r == nil || seen[name] || len(seen) >= maxMakeTargets || level > 16 {
			return
		}
		seen[name] = true
		for _, p := range r.prereqs {
			walk(p, level+1)
		}
		for _, line := range r.recipe {
			ran = true
			n.runDef(c.Name+" "+name, m.expand(strings.TrimLeft(line, "\t@-+ "), r, 0), dir, depth, wrappers)
		}
	}
	for _, t := range targets {
		walk(t, 0)
	}
	if !ran && written {
		// a makefile the line wrote and runs: every recipe it shows
		for _, r := range m.ordered {
			for _, line := range r.recipe {
				n.runDef(c.Name+" "+r.name, m.expand(strings.TrimLeft(line, "\t@-+ "), r, 0), dir, depth, wrappers)
			}
		}
	}
}
