package agent

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// PendingCall is the tool call a task's agent waits on a person for: the
// policy answered its PreToolUse with ask, so Claude Code shows its
// permission dialog in the agent's window. Kept on the agent (JSON in
// agents.pending) until the agent moves on, for task show and the board.
type PendingCall struct {
	Tool      string    `json:"tool"`
	Call      string    `json:"call,omitempty"` // the command, file or input (redacted by the hook)
	Rule      string    `json:"rule,omitempty"`
	Reason    string    `json:"reason,omitempty"`
	ToolUseID string    `json:"tool_use_id,omitempty"`
	Session   string    `json:"session,omitempty"`
	At        time.Time `json:"at"`
}

// PendingFrom reads the pending call out of the PreToolUse event the
// policy answered with ask.
func PendingFrom(e *store.Event) PendingCall {
	return PendingCall{Tool: e.Tool, Call: e.Detail, Rule: e.Rule, Reason: e.Reason, ToolUseID: e.ToolUseID,
		Session: e.SessionID, At: e.Time}
}

// String is one line for a person: what, and which rule asked why.
func (p PendingCall) String() string {
	s := p.Tool
	if p.Call != "" {
		s += " `" + p.Call + "`"
	}
	if p.Rule != "" {
		s += fmt.Sprintf(" (%s: %s)", p.Rule, p.Reason)
	} else if p.Reason != "" {
		s += " (" + p.Reason + ")"
	}
	return s
}

// Pending decodes an agent's pending call; nil when it has none.
func Pending(a *store.Agent) *PendingCall {
	if a == nil || a.Pending == "" {
		return nil
	}
	var p PendingCall
	if json.Unmarshal([]byte(a.Pending), &p) != nil {
		return nil
	}
	return &p
}

func encodePending(p PendingCall) string {
	b, _ := json.Marshal(p)
	return string(b)
}
