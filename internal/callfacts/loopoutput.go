package callfacts

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxLoopPasses bounds the passes forOutput prints one by one: a longer
// list is read once, its variable holding every value (as before).
const maxLoopPasses = 16

// forOutput is what a for loop over listed words prints: the body's
// output once per value, the loop variable holding that value alone. A
// shell fed it runs one command per pass, each judged on its own
// (for h in db1 db2; do echo "ssh $h uptime"; done | sh is two ssh
// commands, not one ssh with the second pass's words as arguments).
// Other loops (for ((…)), a list too long or empty) print as loopOutput.
func (n *normalizer) forOutput(x *syntax.ForClause, stdin text) text {
	it, ok := x.Loop.(*syntax.WordIter)
	if !ok || it.Name == nil || len(it.Items) == 0 || len(x.Do) == 0 {
		return n.loopOutput(x.Do, stdin)
	}
	vals := distinct(n.argv(it.Items))
	if len(vals) < 2 || len(vals) > maxLoopPasses {
		return n.loopOutput(x.Do, stdin)
	}
	name := it.Name.Value
	saved, had := n.vars[name]
	defer func() {
		if had {
			n.vars[name] = saved
		} else {
			delete(n.vars, name)
		}
	}()
	if n.vars == nil {
		n.vars = map[string][]string{}
	}
	out := text{known: true}
	for _, v := range vals {
		n.vars[name] = []string{v}
		t := n.passOutput(x.Do, stdin)
		if !t.known {
			return text{}
		}
		out.s += t.s
		if out.from == "" {
			out.from = t.from
		}
	}
	return out
}

// passOutput is what one pass of a printing body prints, its variable
// set: a command template as loopOutput's, or text the line shows whole
// (for c in "make lint" "rm -rf ~"; do echo "$c"; done | sh prints both
// commands, read as echo 'rm -rf ~' | sh is).
func (n *normalizer) passOutput(body []*syntax.Stmt, stdin text) text {
	for _, st := range body {
		if !printsOnly(st) {
			return text{}
		}
	}
	t := n.stmtsOutput(body, stdin)
	if !t.known || strings.TrimSpace(t.s) == "" || !commandTemplate(t.s) && strings.Contains(t.s, "$") {
		return text{}
	}
	return t
}

// distinct is vals without repeats, in order.
func distinct(vals []string) []string {
	out := make([]string, 0, len(vals))
	for _, v := range vals {
		dup := false
		for _, o := range out {
			dup = dup || o == v
		}
		if !dup {
			out = append(out, v)
		}
	}
	return out
}

// loopOutput is what a loop prints when its body only prints: the body's
// output once, standing for every pass. A shell fed it runs the commands
// the body wrote, its loop variable as an unknown value — judged as those
// commands are (for n in 1 2 4; do echo "mpirun -np $n ./bench"; done | sh
// runs mpirun; … echo "rm -rf $d" … | sh still deletes). A body that does
// anything but print (a read, a call whose output is unknown) leaves the
// output unknown, as before.
func (n *normalizer) loopOutput(body []*syntax.Stmt, stdin text) text {
	if len(body) == 0 {
		return text{}
	}
	for _, st := range body {
		if !printsOnly(st) {
			return text{}
		}
	}
	t := n.stmtsOutput(body, stdin)
	if !t.known || !commandTemplate(t.s) {
		return text{}
	}
	return t
}

// printsOnly: st is an echo or printf (of literals, variables and
// substitutions), nothing else.
func printsOnly(st *syntax.Stmt) bool {
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 || len(st.Redirs) > 0 {
		return false
	}
	name := call.Args[0].Lit()
	return name == "echo" || name == "printf"
}
