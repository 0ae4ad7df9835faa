package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// The drift and error-ack handler tests run the real warden-judge (built
// once) against an httptest server speaking the Messages API, so a judge
// call goes the whole way: hook → warden-judge → SDK → HTTP → verdict.

var judgeBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "warden-judge-bin-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, judge.BinaryName)
	out, err := exec.Command("go", "build", "-o", bin, "github.com/warden-dev/warden/cmd/warden-judge").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build warden-judge: %v\n%s", err, out)
	}
	return bin, nil
})

// messagesAPI is a fake Messages API: every request gets the same reply
// text (after delay); requests are recorded.
type messagesAPI struct {
	srv   *httptest.Server
	mu    sync.Mutex
	text  string
	delay time.Duration
	reqs  []apiCall
}

type apiCall struct {
	Model  string
	Prompt string
}

func (f *messagesAPI) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/messages" {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var q struct {
		Model    string `json:"model"`
		Messages []struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"messages"`
	}
	json.Unmarshal(body, &q)
	call := apiCall{Model: q.Model}
	if len(q.Messages) > 0 && len(q.Messages[0].Content) > 0 {
		call.Prompt = q.Messages[0].Content[0].Text
	}
	f.mu.Lock()
	f.reqs = append(f.reqs, call)
	text, delay := f.text, f.delay
	f.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "msg_drift", "type": "message", "role": "assistant", "model": q.Model,
		"content":     []any{map[string]any{"type": "text", "text": text}},
		"stop_reason": "end_turn", "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 900, "output_tokens": 15},
	})
}

func (f *messagesAPI) calls() []apiCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]apiCall(nil), f.reqs...)
}

// newModelEnv is a judgeEnv whose judge calls reach the fake Messages API
// through the real warden-judge, answering reply. Its store is the one at
// paths.DB(), which warden-judge's background runs (lazy verdicts) open.
// Claude Code's directory is a temp dir (CLAUDE_CONFIG_DIR).
func newModelEnv(t *testing.T, reply string) (*judgeEnv, *messagesAPI) {
	if testing.Short() {
		t.Skip("builds and runs warden-judge")
	}
	bin, err := judgeBinary()
	if err != nil {
		t.Fatal(err)
	}
	e := newJudgeEnv(t)
	t.Setenv(judge.BinEnv, bin)
	api := &messagesAPI{text: reply}
	api.srv = httptest.NewServer(http.HandlerFunc(api.serve))
	t.Cleanup(api.srv.Close)
	t.Setenv("ANTHROPIC_BASE_URL", api.srv.URL)
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(t.TempDir(), "claude"))
	st, err := sqlite.Open(context.Background(), paths.DB())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e.st = st
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
