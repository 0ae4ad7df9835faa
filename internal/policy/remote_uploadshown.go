package policy

import "github.com/warden-dev/warden/internal/callfacts"

// uploadedShown: the script the ssh command at i runs was written by the
// line before it was copied there (callfacts/remotefiles.go), so the
// shell or interpreter it starts there carries the text and its commands
// are judged as the ones the line shows; core.destroy:remote-script is
// for a copy whose text is not on the line.
func uploadedShown(e *Env, i int) bool {
	base := len(e.F.Commands[i].Wrappers)
	for j := i + 1; j < len(e.F.Commands); j++ {
		in := &e.F.Commands[j]
		if len(in.Wrappers) <= base {
			return false
		}
		if len(in.Wrappers) == base+1 && (callfacts.IsShell(in.Name) || callfacts.IsInterpreter(in.Name)) {
			return in.Payload != "" && !in.FeedUnknown && in.ScriptShown
		}
	}
	return false
}
