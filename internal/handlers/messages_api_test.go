package handlers

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/testenv"
)

// The judge tests that go the whole way (tool approval, drift, error-ack)
// run the real warden-helper (built once) against an httptest server
// speaking the Messages API in place of the model: hook → warden-helper →
// SDK → HTTP → verdict.

// messagesAPI is a fake Messages API. Requests are recorded. With a script,
// each model's replies go in order and the last one repeats (a model not in
// the script gets a 404); without one, every request gets text after delay.
type messagesAPI struct {
	srv    *httptest.Server
	mu     sync.Mutex
	script map[string][]apiReply
	seen   map[string]int
	text   string
	delay  time.Duration
	reqs   []apiCall
}

// apiReply is one scripted answer.
type apiReply struct {
	text  string
	delay time.Duration
}

// apiCall is one request the fake received: the model and the prompt (the
// first message's text).
type apiCall struct {
	Model  string
	Prompt string
}

// newMessagesAPI skips under -short; otherwise it starts the fake and points
// the anthropic provider (ANTHROPIC_BASE_URL) and judge.BinEnv (the real
// warden-helper) at it.
func newMessagesAPI(t *testing.T, script map[string][]apiReply) *messagesAPI {
	if testing.Short() {
		t.Skip("builds and runs warden-helper")
	}
	t.Setenv(judge.BinEnv, testenv.Binary(t, judge.BinaryName))
	f := &messagesAPI{script: script, seen: map[string]int{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	t.Setenv("ANTHROPIC_BASE_URL", f.srv.URL)
	return f
}

func (f *messagesAPI) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/messages" {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	var q struct {
		Model    string `json:"model"`
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	body, _ := io.ReadAll(r.Body)
	json.Unmarshal(body, &q)
	call := apiCall{Model: q.Model}
	if len(q.Messages) > 0 {
		var blocks []struct {
			Text string `json:"text"`
		}
		if json.Unmarshal(q.Messages[0].Content, &blocks) == nil && len(blocks) > 0 {
			call.Prompt = blocks[0].Text
		} else {
			json.Unmarshal(q.Messages[0].Content, &call.Prompt)
		}
	}
	f.mu.Lock()
	f.reqs = append(f.reqs, call)
	reply, known := apiReply{f.text, f.delay}, true
	if f.script != nil {
		rs, n := f.script[q.Model], f.seen[q.Model]
		f.seen[q.Model]++
		if known = len(rs) > 0; known {
			reply = rs[min(n, len(rs)-1)]
		}
	}
	f.mu.Unlock()
	if !known {
		w.WriteHeader(404)
		io.WriteString(w, `{"type":"error","error":{"type":"not_found_error","message":"unknown model"}}`)
		return
	}
	if reply.delay > 0 {
		select {
		case <-time.After(reply.delay):
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "msg_test", "type": "message", "role": "assistant", "model": q.Model,
		"content":     []any{map[string]any{"type": "text", "text": reply.text}},
		"stop_reason": "end_turn", "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 500, "output_tokens": 12},
	})
}

func (f *messagesAPI) calls() []apiCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]apiCall(nil), f.reqs...)
}

// openHomeStore opens the store at paths.DB() (under WARDEN_HOME), the one
// warden-helper judge's background runs (lazy verdicts) open and record into.
func openHomeStore(t *testing.T) *sqlite.Store {
	os.MkdirAll(paths.Home(), 0o700)
	st, err := sqlite.Open(context.Background(), paths.DB())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
