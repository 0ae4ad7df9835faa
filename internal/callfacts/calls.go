package callfacts

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Aliases and functions a command line defines and then calls run their
// own text: `alias nuke='rm -rf'; nuke ~` is rm -rf ~, and
// `f() { rm -rf "$1"; }; f ~` is rm -rf ~. A function's body is walked for
// each call with the call's arguments as $1…$9, $@ and $* (so a retry
// wrapper's "$@" is the command it retries), and once as written, its
// parameters unknown, when the line never calls it.

// maxFuncCalls bounds the calls followed in one command line.
const maxFuncCalls = 8

// defineFunc records a function's body as shell text; false when it has
// none to record (its body is then walked where it stands).
func (n *normalizer) defineFunc(x *syntax.FuncDecl) bool {
	if x.Name == nil || x.Body == nil {
		return false
	}
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, x.Body); err != nil {
		return false
	}
	if n.funcs == nil {
		n.funcs = map[string]string{}
	}
	n.funcs[x.Name.Value] = b.String()
	return true
}

// uncalledFunc walks the body of a function the line defines but does not
// call (as written, its parameters unknown): another line may call it.
func (n *normalizer) uncalledFunc(name string, depth int, wrappers []string) {
	if n.called[name] {
		return
	}
	if n.called == nil {
		n.called = map[string]bool{}
	}
	n.called[name] = true
	n.shell(n.funcs[name], depth+1, append(append([]string(nil), wrappers...), name+"()"), nil)
}

// defineAlias records `alias name=value` (after the alias command itself
// is walked, so its own text is not expanded by it).
func (n *normalizer) defineAlias(argv []string) {
	if argv[0] != "alias" {
		return
	}
	for _, a := range argv[1:] {
		if k, v, ok := strings.Cut(a, "="); ok && k != "" && !strings.HasPrefix(k, "-") {
			if n.aliases == nil {
				n.aliases = map[string]string{}
			}
			n.aliases[k] = v
		}
	}
}

// expandAlias replaces a call of a known alias with its value (an escaped
// name, \nuke, dodges the alias).
func (n *normalizer) expandAlias(argv []string, escaped bool) []string {
	v, ok := n.aliases[argv[0]]
	if !ok || escaped {
		return argv
	}
	words := strings.Fields(v)
	if len(words) == 0 {
		return argv
	}
	n.derive("alias %s runs %q", argv[0], v)
	return append(words, argv[1:]...)
}

// callFunc walks a defined function's body with the call's arguments as
// its positional parameters (none: they are empty, as in the shell).
func (n *normalizer) callFunc(argv []string, depth int, wrappers, upstream []string) {
	body, ok := n.funcs[argv[0]]
	if !ok {
		return
	}
	if n.called == nil {
		n.called = map[string]bool{}
	}
	if n.evalDepth > maxDepth || len(n.f.Commands) >= maxCmds || n.funcCalls >= maxFuncCalls {
		n.uncalledFunc(argv[0], depth, wrappers) // at least once, as written
		return
	}
	n.called[argv[0]] = true
	n.funcCalls++
	saved := map[string][]string{}
	names := []string{"@", "*", "#", "1", "2", "3", "4", "5", "6", "7", "8", "9"}
	for _, k := range names {
		if v, ok := n.vars[k]; ok {
			saved[k] = v
		}
		delete(n.vars, k)
	}
	args := argv[1:]
	n.setVar("@", []string{strings.Join(args, " ")})
	n.setVar("*", []string{strings.Join(args, " ")})
	for i := 0; i < 9; i++ {
		v := ""
		if i < len(args) {
			v = args[i]
		}
		n.vars[string(rune('1'+i))] = []string{v}
	}
	n.derive("%s() runs with %q", argv[0], strings.Join(args, " "))
	n.evalDepth++
	n.shell(body, depth+1, append(append([]string(nil), wrappers...), argv[0]+"()"), upstream)
	n.evalDepth--
	for _, k := range names {
		delete(n.vars, k)
		if v, ok := saved[k]; ok {
			n.vars[k] = v
		}
	}
}
