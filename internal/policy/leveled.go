package policy

// A judge that returns a level ("deny", "ask" or "") and a reason backs
// two rules of one kind — the deny one and the ask one — each firing on
// its own level, so one reading decides both and explain names the rule
// that matches the verdict.

// judgeFn reads one command and says how far it must be stopped and why.
type judgeFn func(e *Env, c *Cmd) (level, why string)

// atLevel is a cmdRule match that fires when judge says want.
func atLevel(judge judgeFn, want string) func(e *Env, c *Cmd) string {
	return func(e *Env, c *Cmd) string {
		if lvl, why := judge(e, c); lvl == want {
			return why
		}
		return ""
	}
}

// anyAtLevel is a Rule match that fires on the first command of the
// call judge says want for.
func anyAtLevel(judge judgeFn, want string) func(e *Env) string {
	return func(e *Env) string {
		for i := range e.F.Commands {
			if lvl, why := judge(e, &e.F.Commands[i]); lvl == want {
				return why
			}
		}
		return ""
	}
}
