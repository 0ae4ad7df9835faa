package policy

import "iter"

// projectScriptRun is one project script a command runs by path (scriptRun):
// the command, the script and the arguments after it.
type projectScriptRun struct {
	c    *Cmd
	path string
	args []string
}

// scriptRuns yields each project script the line runs by path, leaving
// out a request for its help and a dry run: neither does the script's
// work, so no rule about what a script does judges them. The rules that
// read a script by its name and arguments (script-name-destroy,
// unread-script-target) walk the line through this one loop.
func (e *Env) scriptRuns() iter.Seq[projectScriptRun] {
	return func(yield func(projectScriptRun) bool) {
		for i := range e.F.Commands {
			c := &e.F.Commands[i]
			p, args := scriptRun(c)
			if p == "" || onlyHelp(c) || e.dryRun(c) {
				continue
			}
			if !yield(projectScriptRun{c, p, args}) {
				return
			}
		}
	}
}
