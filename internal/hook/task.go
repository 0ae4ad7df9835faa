package hook

import (
	"strings"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/redact"
)

// taskID is the task of the agent this hook runs for: warden's agents
// carry WARDEN_TASK_ID in their environment, which reaches the hook as the
// caller's (in the keeper too: the request carries it, not the process).
func (r *run) taskID() string { return r.env.Getenv(event.TaskIDEnv) }

// maxPendingCall bounds the call kept for a person to read.
const maxPendingCall = 2000

// pendingCall is what a task agent's tool call that the policy answered
// with ask is about — the command, the file, or the input as JSON —,
// redacted, for the event's detail: the agent waits on a person for it,
// and that person must see what they are asked (internal/agent records
// it as the agent's pending call). Only asks are kept this way: the input
// of every call is no business of the record.
func pendingCall(in *event.Input) string {
	s := in.ToolString("command")
	if s == "" {
		s = filePath(in)
	}
	if s == "" {
		s = strings.TrimSpace(string(in.ToolInput))
	}
	s = redact.String(s)
	if len(s) > maxPendingCall {
		s = strings.ToValidUTF8(s[:maxPendingCall], "") + "…"
	}
	return s
}
