package callfacts

import "mvdan.cc/sh/v3/syntax"

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
