package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/testenv"
)

// fakeAPI is an httptest server speaking the Messages API (non-streaming,
// as the SDK's Messages.New asks). reply decides each answer from the
// decoded request; every request is kept for the test to read.
type fakeAPI struct {
	srv   *httptest.Server
	reply func(r apiRequest) apiReply

	mu   sync.Mutex
	reqs []apiRequest
}

// apiRequest is one request as the fake saw it.
type apiRequest struct {
	Model    string       `json:"model"`
	System   []apiBlock   `json:"system"`
	Messages []apiMessage `json:"messages"`
	Tools    []struct {
		Name string `json:"name"`
	} `json:"tools"`
	ToolChoice map[string]any `json:"tool_choice"`
}

type apiMessage struct {
	Role    string     `json:"role"`
	Content []apiBlock `json:"content"`
}

type apiBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"`
}

// ResultText is a tool_result's content as text.
func (b apiBlock) ResultText() string {
	var s string
	if json.Unmarshal(b.Content, &s) == nil {
		return s
	}
	var bs []apiBlock
	json.Unmarshal(b.Content, &bs)
	var sb strings.Builder
	for _, x := range bs {
		sb.WriteString(x.Text)
	}
	return sb.String()
}

func (r apiRequest) system() string {
	var sb strings.Builder
	for _, b := range r.System {
		sb.WriteString(b.Text)
	}
	return sb.String()
}

// lastUser is the request's last user message.
func (r apiRequest) lastUser() apiMessage {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i]
		}
	}
	return apiMessage{}
}

// turn is how many assistant messages the request already holds.
func (r apiRequest) turn() int {
	n := 0
	for _, m := range r.Messages {
		if m.Role == "assistant" {
			n++
		}
	}
	return n
}

// apiReply is one answer: text and tool calls, or an HTTP error, after
// an optional delay.
type apiReply struct {
	Text   string
	Tools  []toolCall
	Status int
	Delay  time.Duration
}

type toolCall struct {
	Name  string
	Input map[string]any
}

func newFakeAPI(t *testing.T, reply func(r apiRequest) apiReply) *fakeAPI {
	f := &fakeAPI{reply: reply}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req apiRequest
	if r.URL.Path != "/v1/messages" || json.Unmarshal(body, &req) != nil {
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"fake: unexpected request"}}`, 400)
		return
	}
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	rep := f.reply(req)
	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if rep.Status != 0 {
		w.WriteHeader(rep.Status)
		fmt.Fprintf(w, `{"type":"error","error":{"type":"api_error","message":"fake error %d"}}`, rep.Status)
		return
	}
	var content []map[string]any
	if rep.Text != "" {
		content = append(content, map[string]any{"type": "text", "text": rep.Text})
	}
	stop := "end_turn"
	for i, tc := range rep.Tools {
		content = append(content, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d_%d", req.turn(), i), "name": tc.Name, "input": tc.Input})
		stop = "tool_use"
	}
	json.NewEncoder(w).Encode(map[string]any{"id": "msg_fake", "type": "message", "role": "assistant", "model": req.Model,
		"content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 100, "output_tokens": 20}})
}

func (f *fakeAPI) requests() []apiRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]apiRequest(nil), f.reqs...)
}

// env is a test's server setup: a project directory, the config, the
// fake API (nil: no provider).
type env struct {
	dir  string
	cfg  *config.Config
	api  *fakeAPI
	home string
}

// newEnv makes a git repository with one commit (main.go) as the project,
// and a config whose judges use the anthropic provider against api
// (provider none when api is nil).
func newEnv(t *testing.T, api *fakeAPI) *env {
	t.Helper()
	dir := testenv.GitRepo(t, "main.go", "package main\n\nfunc main() {\n\tprintln(\"hello\")\n}\n")
	cfg := config.Defaults()
	cfg.LLM.Provider = "none"
	if api != nil {
		cfg.LLM.Provider = "anthropic"
	}
	cfg.LLM.ModelSonnet, cfg.LLM.ModelHaiku, cfg.LLM.ModelOpus = "fake-sonnet", "fake-haiku", "fake-opus"
	return &env{dir: dir, cfg: cfg, api: api, home: t.TempDir()}
}

func (e *env) getenv(k string) string {
	switch k {
	case "ANTHROPIC_API_KEY":
		if e.api != nil {
			return "sk-ant-test-0000"
		}
	case "ANTHROPIC_BASE_URL":
		if e.api != nil {
			return e.api.srv.URL
		}
	case "HOME":
		return e.home
	}
	return ""
}

// connect starts the server in process and connects a client through the
// SDK's in-memory transport.
func (e *env) connect(t *testing.T, o Options) *sdk.ClientSession {
	t.Helper()
	if o.Dir == "" {
		o.Dir = e.dir
	}
	if o.Config == nil {
		o.Config = e.cfg
	}
	if o.Getenv == nil {
		o.Getenv = e.getenv
	}
	if o.LookPath == nil {
		o.LookPath = func(string) (string, error) { return "", os.ErrNotExist }
	}
	if o.Core == "" {
		o.Core = filepath.Join(t.TempDir(), "no-warden-core")
	}
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := New(o).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and decodes its structured output into out. It fails
// the test on a protocol error or an error result.
func call(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any, out any) *sdk.CallToolResult {
	t.Helper()
	res, err := callErr(cs, name, args)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s: error result: %s", name, resultText(res))
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s: structured output %s: %v", name, b, err)
	}
	return res
}

func callErr(cs *sdk.ClientSession, name string, args map[string]any) (*sdk.CallToolResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if args == nil {
		args = map[string]any{}
	}
	return cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
}

// wantArgError checks that calling name with args is refused with an
// invalid-params MCP error naming arg.
func wantArgError(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any, arg string) {
	t.Helper()
	res, err := callErr(cs, name, args)
	if err == nil {
		t.Fatalf("%s %v: no error (result %s), want an invalid-params error naming %q", name, args, resultText(res), arg)
	}
	var we *jsonrpc.Error
	if !asWireError(err, &we) || we.Code != jsonrpc.CodeInvalidParams {
		t.Fatalf("%s %v: error %v, want JSON-RPC invalid params (-32602)", name, args, err)
	}
	if !strings.Contains(err.Error(), arg) {
		t.Fatalf("%s %v: error %q does not name the argument %q", name, args, err, arg)
	}
}

func resultText(res *sdk.CallToolResult) string {
	if res == nil {
		return "<nil>"
	}
	var sb strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			sb.WriteString(tc.Text)
		}
	}
	return sb.String()
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return testenv.Git(t, dir, args...)
}

func chmodX(t *testing.T, p string) {
	t.Helper()
	if err := os.Chmod(p, 0o755); err != nil {
		t.Fatal(err)
	}
}
