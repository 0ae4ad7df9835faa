// Package session is the per-session state warden keeps between hook
// processes (one row per Claude Code session in the store).
package session

import "encoding/json"

// State is decoded from and saved to the store on every hook run. Handlers
// keep their own data under Values (keyed by handler name) so adding a
// handler never needs a schema change.
type State struct {
	// ToolCount counts PreToolUse events in this session.
	ToolCount int `json:"tool_count"`
	// SubagentDepth is SubagentStart minus SubagentStop.
	SubagentDepth int `json:"subagent_depth"`
	// Flags are simple switches (for example "config_warned").
	Flags map[string]bool `json:"flags,omitempty"`
	// Values holds each handler's own state.
	Values map[string]json.RawMessage `json:"values,omitempty"`
}

// Flag reports whether flag name is set.
func (s *State) Flag(name string) bool { return s.Flags[name] }

// SetFlag sets or clears a flag.
func (s *State) SetFlag(name string, on bool) {
	if !on {
		delete(s.Flags, name)
		return
	}
	if s.Flags == nil {
		s.Flags = map[string]bool{}
	}
	s.Flags[name] = true
}

// Get decodes a handler's value into v; false when absent or undecodable.
func (s *State) Get(key string, v any) bool {
	raw, ok := s.Values[key]
	if !ok {
		return false
	}
	return json.Unmarshal(raw, v) == nil
}

// Put stores a handler's value.
func (s *State) Put(key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if s.Values == nil {
		s.Values = map[string]json.RawMessage{}
	}
	s.Values[key] = b
	return nil
}
