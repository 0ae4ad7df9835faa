package handlers

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// newModelEnv is a judgeEnv whose judge calls reach the fake Messages API
// through the real warden-helper, answering reply. Its store is the one at
// paths.DB(), which warden-helper judge's background runs (lazy verdicts) open.
// Claude Code's directory is a temp dir (CLAUDE_CONFIG_DIR).
func newModelEnv(t *testing.T, reply string) (*judgeEnv, *messagesAPI) {
	e := newJudgeEnv(t)
	api := newMessagesAPI(t, nil)
	api.text = reply
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(t.TempDir(), "claude"))
	e.st = openHomeStore(t)
	return e, api
}

// transcript writes a Claude Code transcript of the given entries.
type transcript struct {
	t    *testing.T
	path string
	n    int
}

func newTranscript(t *testing.T) *transcript {
	return &transcript{t: t, path: filepath.Join(t.TempDir(), "session.jsonl")}
}

func (tr *transcript) add(entry map[string]any) {
	b, _ := json.Marshal(entry)
	f, err := os.OpenFile(tr.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		tr.t.Fatal(err)
	}
	defer f.Close()
	f.Write(append(b, '\n'))
}

func (tr *transcript) user(prompt string) {
	tr.add(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": prompt}})
}

// assistant writes one message: its text (if any), then a tool call id
// (if any) with input.
func (tr *transcript) assistant(text, toolID, tool string, input any) {
	tr.n++
	id := fmt.Sprintf("msg_%d", tr.n)
	if text != "" {
		tr.add(map[string]any{"type": "assistant", "message": map[string]any{"id": id, "role": "assistant",
			"content": []any{map[string]any{"type": "text", "text": text}}}})
	}
	if toolID != "" {
		tr.add(map[string]any{"type": "assistant", "message": map[string]any{"id": id, "role": "assistant",
			"content": []any{map[string]any{"type": "tool_use", "id": toolID, "name": tool, "input": input}}}})
	}
}

func (tr *transcript) result(toolID, text string, isError bool) {
	tr.add(map[string]any{"type": "user", "message": map[string]any{"role": "user",
		"content": []any{map[string]any{"type": "tool_result", "tool_use_id": toolID, "is_error": isError, "content": text}}}})
}

func toolInput(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
