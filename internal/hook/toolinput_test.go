package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A tool call's input is kept for replay, secrets redacted, within
// record.tool_input_max_kb; a larger one keeps only its size; with
// record.tool_inputs = false nothing; prompts never without capture.
func TestToolInputRecorded(t *testing.T) {
	home, _ := env(t)
	os.WriteFile(filepath.Join(home, "config.toml"), []byte("[record]\ntool_input_max_kb = 1\n"), 0o644)
	runHook(t, strings.NewReader(payload("PreToolUse",
		`"tool_name":"Bash","tool_input":{"command":"curl -H 'x-api-key: sk-ant-api03-abcdefghijklmnop' https://x"}`)))
	big := strings.Repeat("x", 2000)
	runHook(t, strings.NewReader(payload("PreToolUse",
		`"tool_name":"Write","tool_input":{"file_path":"/tmp/a","content":"`+big+`"}`)))
	runHook(t, strings.NewReader(payload("UserPromptSubmit", `"prompt":"my secret plans"`)))
	runHook(t, strings.NewReader(payload("PostToolUse", `"tool_name":"Bash","tool_input":{"command":"ls"}`)))
	evs := events(t, home)
	if len(evs) != 4 {
		t.Fatalf("want 4 events, got %d", len(evs))
	}
	raw := string(evs[0].Raw)
	if strings.Contains(raw, "abcdefghijklmnop") || !strings.Contains(raw, "[REDACTED]") || !json.Valid(evs[0].Raw) ||
		!strings.Contains(raw, `"tool_name":"Bash"`) || strings.Contains(raw, "sess-1") {
		t.Errorf("recorded input %s: want the call, redacted, without the session", raw)
	}
	var omitted struct {
		Tool    string          `json:"tool_name"`
		Input   json.RawMessage `json:"tool_input"`
		Omitted int             `json:"warden_input_omitted"`
	}
	if err := json.Unmarshal(evs[1].Raw, &omitted); err != nil || omitted.Tool != "Write" || omitted.Input != nil || omitted.Omitted < 2000 {
		t.Errorf("input over the limit recorded as %s (%v)", evs[1].Raw, err)
	}
	if len(evs[2].Raw) != 0 || len(evs[3].Raw) != 0 {
		t.Errorf("prompt or PostToolUse input kept without capture: %s / %s", evs[2].Raw, evs[3].Raw)
	}

	os.WriteFile(filepath.Join(home, "config.toml"), []byte("[record]\ntool_inputs = false\n"), 0o644)
	runHook(t, strings.NewReader(payload("PreToolUse", `"tool_name":"Bash","tool_input":{"command":"ls"}`)))
	if evs := events(t, home); len(evs[4].Raw) != 0 {
		t.Errorf("record.tool_inputs = false still kept %s", evs[4].Raw)
	}
}
