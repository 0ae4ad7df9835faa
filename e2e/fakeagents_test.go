package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
)

// fakeModels is the model API of the other agent CLIs, scripted the same
// way for all three: a conversation's first request is answered with one
// shell tool call running Command, and any request that carries a tool
// result with FinalText. It speaks OpenAI Responses (Codex CLI, POST
// /v1/responses), OpenAI Chat Completions (Copilot CLI, POST
// /v1/chat/completions) and Gemini (Gemini CLI, POST
// /v1beta/models/<m>:streamGenerateContent?alt=sse), all streamed as SSE.
type fakeModels struct {
	Command   string   // the shell command the model asks for
	Then      []string // commands asked next, one per tool result received
	FinalText string
	srv       *httptest.Server

	// CodexHeaders are sent with every Responses answer: Codex records
	// x-codex-* rate-limit headers in its rollout.
	CodexHeaders map[string]string

	mu      sync.Mutex
	reqs    []string    // "METHOD path" of every request
	results []string    // the tool results the CLIs sent back, as text
	usages  []fakeUsage // the usage each model answer reported, in order
}

// fakeUsage is the token usage one answer reports, distinct per request
// so a report that drops, doubles or mixes up a field shows: In counts
// every input token, Cached of them read from the cache; Out every
// output token, Reasoning of them thinking.
type fakeUsage struct{ In, Cached, Out, Reasoning int64 }

// nextUsage is the usage of the n-th answer (1-based), recorded.
func (f *fakeModels) nextUsage() fakeUsage {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := int64(len(f.usages) + 1)
	u := fakeUsage{In: 1000*n + 11, Cached: 100*n + 3, Out: 10*n + 7, Reasoning: n}
	f.usages = append(f.usages, u)
	return u
}

// Usages are the usages the model answers reported.
func (f *fakeModels) Usages() []fakeUsage {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fakeUsage(nil), f.usages...)
}

func (f *fakeModels) URL() string { return f.srv.URL }
func (f *fakeModels) Close()      { f.srv.Close() }

// Requests lists the requests made, "METHOD path".
func (f *fakeModels) Requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.reqs...)
}

// ToolResults are the tool results the CLI sent back to the model.
func (f *fakeModels) ToolResults() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.results...)
}

func (f *fakeModels) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.reqs = append(f.reqs, r.Method+" "+r.URL.Path)
	f.mu.Unlock()
	var req map[string]any
	_ = json.Unmarshal(body, &req)
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/responses"):
		f.responses(w, req)
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/chat/completions"):
		f.chat(w, req)
	case r.Method == http.MethodPost && strings.Contains(r.URL.Path, ":streamGenerateContent"):
		f.gemini(w, req)
	default:
		http.Error(w, `{"error":{"message":"not scripted"}}`, http.StatusNotFound)
	}
}

// next is the command to ask for once the conversation holds results
// tool results; done when there is none left (answer FinalText).
func (f *fakeModels) next(results int) (cmd string, done bool) {
	switch {
	case results == 0:
		return f.Command, false
	case results-1 < len(f.Then):
		return f.Then[results-1], false
	}
	return "", true
}

// toolResult finds a tool result in a request (JSON path per API); ok is
// false for a conversation's first request.
func (f *fakeModels) toolResult(texts []string, ok bool) bool {
	if ok {
		f.mu.Lock()
		f.results = append(f.results, strings.Join(texts, "\n"))
		f.mu.Unlock()
	}
	return ok
}

func items(v any) []map[string]any {
	list, _ := v.([]any)
	var out []map[string]any
	for _, x := range list {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// fakeIDs numbers responses across every fake in the process: a real
// API's response ids are unique, and usage reports count one response
// once by its id.
var fakeIDs atomic.Int64

type sse struct{ w http.ResponseWriter }

func startSSE(w http.ResponseWriter) sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return sse{w}
}

// event writes one SSE event (name "" for a data-only one).
func (s sse) event(name string, data any) {
	if name != "" {
		fmt.Fprintf(s.w, "event: %s\n", name)
	}
	b, _ := json.Marshal(data)
	fmt.Fprintf(s.w, "data: %s\n\n", b)
	if fl, ok := s.w.(http.Flusher); ok {
		fl.Flush()
	}
}

// responses answers OpenAI Responses: exec_command{cmd}, as Codex's
// model calls its shell.
func (f *fakeModels) responses(w http.ResponseWriter, req map[string]any) {
	var outs []string
	for _, it := range items(req["input"]) {
		if it["type"] == "function_call_output" {
			outs = append(outs, text(it["output"]))
		}
	}
	f.toolResult(outs, len(outs) > 0)
	command, done := f.next(len(outs))
	for k, v := range f.CodexHeaders {
		w.Header().Set(k, v)
	}
	u := f.nextUsage()
	s := startSSE(w)
	id := fmt.Sprintf("resp_%d", fakeIDs.Add(1))
	s.event("response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": id}})
	var item map[string]any
	if done {
		item = map[string]any{"type": "message", "role": "assistant", "id": "msg_" + id,
			"content": []any{map[string]any{"type": "output_text", "text": f.FinalText, "annotations": []any{}}}}
	} else {
		args, _ := json.Marshal(map[string]any{"cmd": command})
		item = map[string]any{"type": "function_call", "id": "fc_" + id, "call_id": "call_" + id, "name": "exec_command", "arguments": string(args)}
	}
	s.event("response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
	s.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	s.event("response.completed", map[string]any{"type": "response.completed", "response": map[string]any{
		"id": id, "usage": map[string]any{"input_tokens": u.In, "input_tokens_details": map[string]any{"cached_tokens": u.Cached},
			"output_tokens": u.Out, "output_tokens_details": map[string]any{"reasoning_tokens": u.Reasoning}, "total_tokens": u.In + u.Out}}})
}

// chat answers OpenAI Chat Completions: bash{command,description}, as
// Copilot's model calls its shell.
func (f *fakeModels) chat(w http.ResponseWriter, req map[string]any) {
	var outs []string
	for _, m := range items(req["messages"]) {
		if m["role"] == "tool" {
			outs = append(outs, text(m["content"]))
		}
	}
	f.toolResult(outs, len(outs) > 0)
	command, done := f.next(len(outs))
	u := f.nextUsage()
	s := startSSE(w)
	id := fmt.Sprintf("chatcmpl-%d", fakeIDs.Add(1))
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1764324000, "model": text(req["model"]),
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	if done {
		s.event("", chunk(map[string]any{"role": "assistant", "content": f.FinalText}, nil))
		s.event("", chunk(map[string]any{}, "stop"))
	} else {
		args, _ := json.Marshal(map[string]any{"command": command, "description": "run the command"})
		s.event("", chunk(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"index": 0, "id": "call_" + id, "type": "function", "function": map[string]any{"name": "bash", "arguments": string(args)}}}}, nil))
		s.event("", chunk(map[string]any{}, "tool_calls"))
	}
	s.event("", map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1764324000, "model": text(req["model"]), "choices": []any{},
		"usage": map[string]any{"prompt_tokens": u.In, "prompt_tokens_details": map[string]any{"cached_tokens": u.Cached},
			"completion_tokens": u.Out, "completion_tokens_details": map[string]any{"reasoning_tokens": u.Reasoning}, "total_tokens": u.In + u.Out}})
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// gemini answers Gemini's streamGenerateContent: run_shell_command.
func (f *fakeModels) gemini(w http.ResponseWriter, req map[string]any) {
	var outs []string
	for _, c := range items(req["contents"]) {
		for _, p := range items(c["parts"]) {
			if fr, ok := p["functionResponse"]; ok {
				outs = append(outs, text(fr))
			}
		}
	}
	f.toolResult(outs, len(outs) > 0)
	command, done := f.next(len(outs))
	u := f.nextUsage()
	s := startSSE(w)
	var part map[string]any
	if done {
		part = map[string]any{"text": f.FinalText}
	} else {
		part = map[string]any{"functionCall": map[string]any{"name": "run_shell_command",
			"args": map[string]any{"command": command, "description": "run the command"}}}
	}
	s.event("", map[string]any{
		"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
		// Gemini counts thoughts apart from candidates.
		"usageMetadata": map[string]any{"promptTokenCount": u.In, "cachedContentTokenCount": u.Cached,
			"candidatesTokenCount": u.Out - u.Reasoning, "thoughtsTokenCount": u.Reasoning, "totalTokenCount": u.In + u.Out},
		"modelVersion": "gemini-3.1-pro-preview",
	})
}
