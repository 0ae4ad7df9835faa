package policy

import "strings"

// evalReads: an app console's evaluation (rails runner CODE, bin/app eval
// EXPR, remoteops.txt console-eval) whose every call only reads or prints
// (exprReads: puts Sidekiq::RetrySet.new.size): it looks at the running
// application's data and changes none of it. A call that is not listed
// (save, update, clear, destroy) keeps the console a change.
func evalReads(c *Cmd) bool {
	pos := c.Pos
	if len(pos) > 0 && strings.HasSuffix(pos[0], "/rails") || len(pos) > 0 && pos[0] == "rails" {
		pos = pos[1:] // ruby bin/rails runner …
	}
	if len(pos) < 2 || !opsList("console-eval")[strings.ToLower(pos[0])] {
		return false
	}
	return exprReads(strings.Join(pos[1:], " "))
}
