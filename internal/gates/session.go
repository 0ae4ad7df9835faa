package gates

import (
	"time"

	"github.com/warden-dev/warden/internal/session"
)

// SessionState is the gates' part of a session's state (saved with it,
// signed, and updated under the session lock by the runtime).
type SessionState struct {
	// Prompt is the kind of the last user prompt that was not passthrough.
	Prompt   Kind      `json:"prompt,omitempty"`
	PromptAt time.Time `json:"prompt_at,omitzero"`
	// Research lists the categories researched (a successful tool call)
	// since the last task prompt.
	Research map[string]bool `json:"research,omitempty"`
	// Startup lists the startup steps done in this session.
	Startup map[string]bool `json:"startup,omitempty"`
	// Edits counts mutations since the last successful test run.
	Edits    int    `json:"edits,omitempty"`
	LastEdit string `json:"last_edit,omitempty"`
	// StopBlocked: verify-before-stop already blocked a Stop for these
	// edits (it blocks once, then trusts the user's call).
	StopBlocked bool `json:"stop_blocked,omitempty"`
}

const stateKey = "gates"

// Load reads the gates' state from a session's state.
func Load(st *session.State) *SessionState {
	g := &SessionState{}
	st.Get(stateKey, g)
	return g
}

// Save writes it back.
func (g *SessionState) Save(st *session.State) { _ = st.Put(stateKey, g) }

// NewPrompt records a classified user prompt. A task (or big task) starts
// a new research round; passthrough prompts ("yes", "continue") change
// nothing.
func (g *SessionState) NewPrompt(k Kind, now time.Time) {
	if k == Passthrough {
		return
	}
	g.Prompt, g.PromptAt = k, now
	if k == Task || k == BigTask {
		g.Research = nil
	}
}

// Edited records a mutation that succeeded.
func (g *SessionState) Edited(what string) {
	g.Edits++
	g.LastEdit = what
	g.StopBlocked = false
}

// Tested records a successful test run.
func (g *SessionState) Tested() {
	g.Edits, g.LastEdit, g.StopBlocked = 0, "", false
}
