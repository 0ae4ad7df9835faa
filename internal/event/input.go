package event

import (
	"encoding/json"
	"fmt"
	"sync"
)

// Input is a decoded hook payload. Every field is optional: Claude Code adds
// fields often and omits others per event, so decoding never fails on a
// missing or unknown key. Raw keeps the exact bytes for capture and for
// handlers that need a field not modelled here.
type Input struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	HookEventName  Name   `json:"hook_event_name"`
	PermissionMode string `json:"permission_mode,omitempty"`
	PromptID       string `json:"prompt_id,omitempty"`
	AgentID        string `json:"agent_id,omitempty"`
	AgentType      string `json:"agent_type,omitempty"`

	// Tool events.
	ToolName     string          `json:"tool_name,omitempty"`
	ToolInput    json.RawMessage `json:"tool_input,omitempty"`
	ToolResponse json.RawMessage `json:"tool_response,omitempty"`
	ToolUseID    string          `json:"tool_use_id,omitempty"`
	DurationMS   *int64          `json:"duration_ms,omitempty"`
	Error        string          `json:"error,omitempty"` // PostToolUseFailure, StopFailure
	IsInterrupt  bool            `json:"is_interrupt,omitempty"`

	// Prompt events.
	Prompt string `json:"prompt,omitempty"`

	// Session, compaction, stop.
	Source               string `json:"source,omitempty"`  // SessionStart, UserPromptSubmit, ConfigChange…
	Reason               string `json:"reason,omitempty"`  // SessionEnd, PermissionDenied
	Trigger              string `json:"trigger,omitempty"` // PreCompact, PostCompact, Setup
	Model                string `json:"model,omitempty"`   // SessionStart (string form)
	StopHookActive       bool   `json:"stop_hook_active,omitempty"`
	LastAssistantMessage string `json:"last_assistant_message,omitempty"`

	// Notification.
	NotificationType string `json:"notification_type,omitempty"` // idle_prompt, permission_prompt…

	// Raw is the payload exactly as read from stdin.
	Raw []byte `json:"-"`

	// tool caches tool_input decoded into its fields (set by Decode):
	// the handlers of one hook ask ToolString a dozen times, and decoding
	// it each time was ~6% of a served hook's CPU.
	tool *toolFields
}

// toolFields is tool_input's fields, decoded once; the handlers of a hook
// and its record may ask from different goroutines.
type toolFields struct {
	once sync.Once
	m    map[string]json.RawMessage
}

// Decode parses a hook payload leniently. It fails only when the bytes are
// not a JSON object; wrong types in fields Claude Code may change are not
// worth failing a hook for, so those fall back to a map-based decode.
func Decode(raw []byte) (*Input, error) {
	in := &Input{Raw: raw}
	if err := json.Unmarshal(raw, in); err != nil {
		var obj map[string]json.RawMessage
		if err2 := json.Unmarshal(raw, &obj); err2 != nil {
			return nil, fmt.Errorf("hook input is not a JSON object: %w", err2)
		}
		// A field had an unexpected type: keep what decodes.
		in = &Input{Raw: raw}
		for k, v := range obj {
			one := map[string]json.RawMessage{k: v}
			b, _ := json.Marshal(one)
			if json.Unmarshal(b, &Input{}) == nil {
				_ = json.Unmarshal(b, in)
			}
		}
	}
	in.tool = &toolFields{}
	return in, nil
}

// ToolString returns a string field of tool_input (for example "command" or
// "file_path"), or "" when it is absent or not a string.
func (in *Input) ToolString(key string) string {
	if len(in.ToolInput) == 0 {
		return ""
	}
	m := in.toolMap()
	if m == nil {
		return ""
	}
	var s string
	if json.Unmarshal(m[key], &s) != nil {
		return ""
	}
	return s
}

// toolMap is tool_input as a map of raw fields, nil when it is not an
// object. An Input made by Decode decodes it once; one built by hand
// (tests) decodes it on every call, so a changed ToolInput is seen.
func (in *Input) toolMap() map[string]json.RawMessage {
	if in.tool == nil {
		var m map[string]json.RawMessage
		if json.Unmarshal(in.ToolInput, &m) != nil {
			return nil
		}
		return m
	}
	in.tool.once.Do(func() {
		if json.Unmarshal(in.ToolInput, &in.tool.m) != nil {
			in.tool.m = nil
		}
	})
	return in.tool.m
}
