package agent

import (
	"fmt"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/store"
)

// State is where an agent is, as its own hooks tell it.
type State string

// The states. Done, Error and TimedOut are final.
const (
	Spawning State = "spawning" // window opened, no tool call yet
	Working  State = "working"  // tool calls are flowing
	Waiting  State = "waiting"  // waiting for input: idle prompt or a permission dialog
	Done     State = "done"     // stopped, its stop allowed and the task's criteria met
	Error    State = "error"    // the stop failed, the process exited or crashed, the criteria were not met
	TimedOut State = "timed_out"
)

// Final reports whether s never changes again.
func (s State) Final() bool { return s == Done || s == Error || s == TimedOut }

// Next is the state after one of the agent's hook events, and a short
// reason for the record when it changed. A reason with the state
// unchanged is a note for the record (an unknown notification). A Stop
// that was allowed ends in StopAllowed: the caller checks the task's
// criteria, which decide between Done and Error.
func Next(cur State, e *store.Event) (State, string) {
	if cur.Final() {
		return cur, ""
	}
	switch event.Name(e.Event) {
	case event.UserPromptSubmit:
		// Someone answered a waiting agent; a spawning agent's first
		// prompt is not work yet (its first tool call is).
		if cur == Waiting {
			return Working, "prompt submitted"
		}
	case event.PreToolUse:
		if e.Decision == string(event.Ask) {
			// The policy sent this call to a person: Claude Code shows
			// its dialog and nobody is at the window (pending.go).
			return Waiting, "asks a person: " + PendingFrom(e).String()
		}
		if cur != Working {
			return Working, e.Event + " " + e.Tool
		}
	case event.PostToolUse, event.PostToolUseFailure, event.PostToolBatch,
		event.SubagentStart, event.SubagentStop, event.PreCompact, event.PostCompact:
		if cur != Working {
			what := e.Event
			if e.Tool != "" {
				what += " " + e.Tool
			}
			return Working, what
		}
	case event.PermissionRequest:
		// Already waiting (the policy's ask came first): its reason,
		// which names the call and the rule, stays.
		if cur != Waiting {
			return Waiting, "permission dialog for " + e.Tool
		}
	case event.Notification:
		switch notificationKind(e.Detail) {
		case notifyWaits:
			if cur != Waiting {
				return Waiting, "Notification " + e.Detail + ": it waits for a person"
			}
		case notifyUnknown:
			// Kept in the record with the state unchanged: a type newer
			// than warden is shown (task show, the board) so a person can
			// look, never dropped.
			return cur, "Notification " + orUnknown(e.Detail) + ": a type warden does not know, state kept; look at the agent (warden agent attach)"
		}
	case event.Stop:
		if e.Decision != string(event.Deny) {
			return StopAllowed, "Stop allowed"
		}
		// A blocked stop: Claude Code carries on with the reason.
		if cur == Working {
			return cur, ""
		}
		return Working, "Stop blocked: " + e.Reason
	case event.StopFailure:
		return Error, fmt.Sprintf("StopFailure: %s", orUnknown(e.Detail))
	case event.SessionEnd:
		return Error, fmt.Sprintf("session ended before the task was done (%s)", orUnknown(e.Detail))
	}
	return cur, ""
}

// StopAllowed is Next's answer to an allowed Stop; it is never stored.
const StopAllowed State = "stop_allowed"

func orUnknown(s string) string {
	if s == "" {
		return "no reason given"
	}
	return s
}
