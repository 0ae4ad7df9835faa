package hook

import (
	"encoding/json"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/redact"
)

// OmittedKey marks a recorded tool input that was larger than
// record.tool_input_max_kb: the row keeps the tool's name and the size,
// and `warden replay` counts the call as not replayable.
const OmittedKey = "warden_input_omitted"

// toolInputRecord is what an event row keeps of a tool call when capture
// is off, so `warden replay` can evaluate the call again: the fields the
// policy reads (tool name, input, cwd), in the hook payload's own shape,
// secrets redacted. Only the events the policy judges a tool call at;
// prompts are the user's words and are kept only with capture = true.
// nil when there is nothing to keep.
func toolInputRecord(ev event.Name, in *event.Input, cfg *config.Config) json.RawMessage {
	if cfg == nil || !cfg.Record.ToolInputs || in.ToolName == "" ||
		(ev != event.PreToolUse && ev != event.PermissionRequest) {
		return nil
	}
	rec := struct {
		Event   event.Name      `json:"hook_event_name"`
		Tool    string          `json:"tool_name"`
		Input   json.RawMessage `json:"tool_input,omitempty"`
		Cwd     string          `json:"cwd,omitempty"`
		Omitted int             `json:"warden_input_omitted,omitempty"`
	}{Event: ev, Tool: in.ToolName, Input: in.ToolInput, Cwd: in.Cwd}
	if max := cfg.Record.ToolInputMaxKB * 1024; len(in.ToolInput) > max {
		rec.Input, rec.Omitted = nil, len(in.ToolInput)
	}
	// Marshal checks the input (a RawMessage that is not JSON fails it),
	// so it is scanned once here, not once more beforehand.
	b, err := json.Marshal(rec)
	if err != nil {
		return nil
	}
	marshalled := string(b)
	out := redact.String(marshalled)
	if out != marshalled && !json.Valid([]byte(out)) {
		// A redaction that cut through the JSON's syntax: keep nothing
		// rather than a row replay cannot read.
		return nil
	}
	return json.RawMessage(out)
}
