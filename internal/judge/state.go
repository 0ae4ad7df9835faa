package judge

import "github.com/warden-dev/warden/internal/session"

// StateKey is where the judges keep their session state.
const StateKey = "judge"

// State is the judges' part of a session's state.
type State struct {
	// TempoBlocks counts tempo's consecutive blocks in the current turn.
	TempoBlocks int `json:"tempo_blocks,omitempty"`
	// MissingWarned: the user was told once that warden-helper is missing.
	MissingWarned bool `json:"missing_warned,omitempty"`
	// LastPrompt is the latest user prompt (the transcript may lag it).
	LastPrompt string `json:"last_prompt,omitempty"`
	// Prompts counts user prompts; JudgedPrompt is the prompt number whose
	// first mutating call was judged strictly.
	Prompts      int `json:"prompts,omitempty"`
	JudgedPrompt int `json:"judged_prompt,omitempty"`
	// AfterTrouble: the last call was denied or failed; the next is strict.
	AfterTrouble bool `json:"after_trouble,omitempty"`
	// LastError is the session's last tool failure and LastErrorPrompt the
	// prompt number it came under: style drift reads a formatter's failure
	// in the current turn as a request to re-format, not one from an
	// earlier turn.
	LastError       string `json:"last_error,omitempty"`
	LastErrorPrompt int    `json:"last_error_prompt,omitempty"`
	// ErrorTool, ErrorTarget (its command or file), ErrorToolUseID and
	// ErrorMessage are the failed call error-ack waits on ("" ErrorTool:
	// none pending); ErrorPrompt is the prompt number it failed under.
	// (LastError is judge-pretool's: every failure.)
	ErrorTool      string `json:"error_tool,omitempty"`
	ErrorTarget    string `json:"error_target,omitempty"`
	ErrorToolUseID string `json:"error_tool_use_id,omitempty"`
	ErrorMessage   string `json:"error_message,omitempty"`
	ErrorPrompt    int    `json:"error_prompt,omitempty"`
	// DriftPrompt is the prompt number of the last file change the drift
	// judges saw: a change under a newer prompt is judged strictly.
	DriftPrompt int `json:"drift_prompt,omitempty"`
	// Workaround detection's denial counts are in ApproveState
	// (approve.go): they count denials from every handler.
}

// LoadState reads the judges' state (zero when absent).
func LoadState(s *session.State) *State {
	st := &State{}
	if s != nil {
		s.Get(StateKey, st)
	}
	return st
}

// Save writes it back.
func (st *State) Save(s *session.State) {
	if s != nil {
		_ = s.Put(StateKey, st)
	}
}
