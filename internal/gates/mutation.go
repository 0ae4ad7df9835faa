package gates

import (
	"github.com/warden-dev/warden/internal/callfacts"
	"github.com/warden-dev/warden/internal/event"
)

// Mutation reports whether a tool call changes files or repository state,
// and why. Gates deny mutations, never reads: Read, Grep, a `git status` or
// a test run always pass. The answer comes from the one reading of the
// call the policy engine reads too (internal/callfacts): every command
// behind wrappers (setsid, flock, busybox, chroot, unshare, sudo…), shell
// payloads, pipes into a shell, xargs and find -exec, each with its
// effect. `echo "rm -rf x"` is no mutation and `echo 'rm -rf x' | sh` is;
// a command that does not parse counts as a mutation.
//
// The user's home is not known here; it only changes how paths are
// spelled in the facts, not whether the call changes something.
func Mutation(in *event.Input) (bool, string) {
	var f *callfacts.Facts
	if in.ToolName == "Bash" {
		// the hook decoded tool_input once already: no second decoding
		f = callfacts.Bash(in.ToolString("command"), in.Cwd, "")
	} else {
		f = callfacts.Normalize(callfacts.Call{Tool: in.ToolName, Input: in.ToolInput, Cwd: in.Cwd})
	}
	why, changes := f.Change()
	return changes, why
}

// BashMutation classifies a shell command line.
func BashMutation(cmd string) (bool, string) {
	why, changes := callfacts.Bash(cmd, "", "").Change()
	return changes, why
}
