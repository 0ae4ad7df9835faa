// Package fakeapi is a scripted stand-in for the Anthropic Messages API
// on 127.0.0.1: Claude Code pointed at it (ANTHROPIC_BASE_URL) gets the
// replies a Script lists, tool calls included, streamed as the real API
// streams them. The end-to-end tests drive the real Claude Code with it,
// and `warden serve --demo` runs its demo task against it, so a first run
// needs no subscription and no network.
package fakeapi

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Step is one scripted model reply of the main conversation: optional text,
// then tool calls. StopReason defaults to "tool_use" when there are tool
// calls and "end_turn" otherwise. Error makes the step answer with an API
// error instead (ErrorTimes > 0: only that many times, then the content).
type Step struct {
	Text       string
	Tools      []ToolUse
	StopReason string
	Error      *APIError
	ErrorTimes int
	Delay      time.Duration
}

// ToolUse is a tool call the fake model makes. An empty ID becomes
// toolu_e2e_<step>_<n>. String values in Input may use ${CWD} and ${HOME}.
type ToolUse struct {
	ID    string
	Name  string
	Input map[string]any
}

// APIError is an error reply of the Messages API.
type APIError struct {
	Status  int
	Type    string
	Message string
}

// SideRule answers a tool-less side query whose last user message contains
// Match with Text (compaction summaries, titles, ...).
type SideRule struct {
	Match string
	Text  string
}

// Script is what the fake model says.
type Script struct {
	Steps     []Step
	SideRules []SideRule
	SideText  string // reply to other side queries (default "OK.")
	DoneText  string // reply once Steps run out
	// RateLimits, when set, are sent as the subscription rate-limit headers
	// on every /v1/messages reply (see Server.SetRateLimits).
	RateLimits *RateLimits
}

// RateLimits are the two subscription windows the fake API reports, as a
// subscriber's Claude Code reads them from
// anthropic-ratelimit-unified-{5h,7d}-{utilization,reset} reply headers and
// passes them to the status line as rate_limits.
type RateLimits struct {
	FiveHour *LimitWindow
	SevenDay *LimitWindow
}

// LimitWindow is one window: utilisation 0–1 (as the API sends it) and its
// reset, ResetIn from the first reply that carries it (Claude Code drops a
// reset in the past or more than a year ahead).
type LimitWindow struct {
	Utilization float64
	ResetIn     time.Duration
}

// APIRequest is one request Claude Code made, decoded.
type APIRequest struct {
	Seq    int
	Time   time.Time
	Method string
	Path   string
	Query  string
	Header http.Header
	Raw    []byte         // body, gunzipped
	Body   map[string]any // decoded JSON body (nil when not JSON)
	// Route is "main" (a main-script step), "side", "side_rule",
	// "count_tokens", "models" or "other".
	Route string
	// Step is the main-script step answered (-1 for other routes).
	Step int
	// Reply summarises what was answered (stop_reason, content blocks, error).
	Reply map[string]any
}

// Message is one message of a Messages API request, with a string content
// turned into a single text block.
type Message struct {
	Role    string  `json:"role"`
	Content []Block `json:"-"`
}

// Block is a content block. Content (tool_result) is a string or blocks.
type Block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     map[string]any  `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"`
}

// ResultText flattens a tool_result's content to text.
func (b Block) ResultText() string {
	var s string
	if json.Unmarshal(b.Content, &s) == nil {
		return s
	}
	var blocks []Block
	if json.Unmarshal(b.Content, &blocks) == nil {
		var sb strings.Builder
		for _, c := range blocks {
			sb.WriteString(c.Text)
		}
		return sb.String()
	}
	return string(b.Content)
}

// Messages decodes the request's messages (nil for non-message requests).
func (r APIRequest) Messages() []Message {
	var body struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(r.Raw, &body) != nil {
		return nil
	}
	out := make([]Message, 0, len(body.Messages))
	for _, m := range body.Messages {
		msg := Message{Role: m.Role}
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			msg.Content = []Block{{Type: "text", Text: s}}
		} else {
			json.Unmarshal(m.Content, &msg.Content)
		}
		out = append(out, msg)
	}
	return out
}

// Text is all text of a message: text blocks and tool_result contents.
func (m Message) Text() string {
	var sb strings.Builder
	for _, b := range m.Content {
		switch b.Type {
		case "text":
			sb.WriteString(b.Text)
			sb.WriteString("\n")
		case "tool_result":
			sb.WriteString(b.ResultText())
			sb.WriteString("\n")
		}
	}
	return sb.String()
}

// LastUser returns the request's last user message.
func (r APIRequest) LastUser() (Message, bool) {
	msgs := r.Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			return msgs[i], true
		}
	}
	return Message{}, false
}

// Server is a scripted stand-in for the Anthropic Messages API on
// 127.0.0.1. Routing of POST /v1/messages (stateless, so retries are
// harmless):
//
//  1. a SideRule whose Match is in the last user message answers with its text;
//  2. a request that offers tools is the main conversation: the step index is
//     the number of assistant messages already in the request;
//  3. anything else (tool-less side queries: titles, summaries) gets SideText.
type Server struct {
	srv    *http.Server
	ln     net.Listener
	script Script
	vars   map[string]string

	mu      sync.Mutex
	reqs    []APIRequest
	errSeen map[int]int
	// resets are the windows' reset instants, fixed when a window is first
	// sent and kept across SetRateLimits, as a real window's reset is.
	resets map[string]time.Time
}

// New starts a Server on a free loopback port. vars fill ${NAME} in the
// script's texts and tool inputs.
func New(script Script, vars map[string]string) *Server {
	f, err := Listen(script, vars)
	if err != nil {
		panic("fakeapi: " + err.Error())
	}
	return f
}

// Listen is New that returns the error of the listen.
func Listen(script Script, vars map[string]string) (*Server, error) {
	if script.SideText == "" {
		script.SideText = "OK."
	}
	if script.DoneText == "" {
		script.DoneText = "Done (fake model script exhausted)."
	}
	if len(script.SideRules) == 0 {
		script.SideRules = []SideRule{{Match: "summary of the conversation",
			Text: "<summary>E2E summary: the user asked for a scripted task and it was done.</summary>"}}
	}
	f := &Server{script: script, vars: vars, errSeen: map[int]int{}, resets: map[string]time.Time{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	f.ln, f.srv = ln, &http.Server{Handler: f, ReadHeaderTimeout: 10 * time.Second}
	go f.srv.Serve(ln)
	return f, nil
}

// SetRateLimits changes the figures sent from the next reply on (nil: no
// headers). A window's reset instant stays the one first sent.
func (f *Server) SetRateLimits(rl *RateLimits) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.script.RateLimits = rl
}

// SetScript replaces the main conversation's steps (for a new session of
// a TUI run); rate limits and side rules are kept.
func (f *Server) SetScript(steps []Step) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.script.Steps = steps
}

// AppendSteps adds main-conversation steps after the current ones.
func (f *Server) AppendSteps(steps ...Step) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.script.Steps = append(append([]Step(nil), f.script.Steps...), steps...)
}

// ResetAt is the reset instant sent for a window ("5h" or "7d"); zero
// before the window was first sent.
func (f *Server) ResetAt(tag string) time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.resets[tag]
}

// writeRateLimits sets the anthropic-ratelimit-unified-* headers of a reply.
func (f *Server) writeRateLimits(w http.ResponseWriter) {
	f.mu.Lock()
	defer f.mu.Unlock()
	rl := f.script.RateLimits
	if rl == nil {
		return
	}
	h := w.Header()
	set := func(tag string, win *LimitWindow) {
		if win == nil {
			return
		}
		at, ok := f.resets[tag]
		if !ok {
			at = time.Now().Add(win.ResetIn).Truncate(time.Second)
			f.resets[tag] = at
		}
		h.Set("anthropic-ratelimit-unified-"+tag+"-utilization", strconv.FormatFloat(win.Utilization, 'f', -1, 64))
		h.Set("anthropic-ratelimit-unified-"+tag+"-reset", strconv.FormatInt(at.Unix(), 10))
		h.Set("anthropic-ratelimit-unified-"+tag+"-status", "allowed")
	}
	set("5h", rl.FiveHour)
	set("7d", rl.SevenDay)
	h.Set("anthropic-ratelimit-unified-status", "allowed")
}

// URL is the base URL for ANTHROPIC_BASE_URL.
func (f *Server) URL() string { return "http://" + f.ln.Addr().String() }

// Close stops the server.
func (f *Server) Close() { f.srv.Close() }

// Requests returns every request so far, in arrival order.
func (f *Server) Requests() []APIRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]APIRequest(nil), f.reqs...)
}

// MainRequests returns the requests routed to the main script.
func (f *Server) MainRequests() []APIRequest {
	var out []APIRequest
	for _, r := range f.Requests() {
		if r.Route == "main" {
			out = append(out, r)
		}
	}
	return out
}

// ToolResults returns the tool_result blocks Claude Code sent back to the
// model, by tool_use_id (the latest request wins).
func (f *Server) ToolResults() map[string]Block {
	out := map[string]Block{}
	for _, r := range f.Requests() {
		for _, m := range r.Messages() {
			for _, b := range m.Content {
				if b.Type == "tool_result" {
					out[b.ToolUseID] = b
				}
			}
		}
	}
	return out
}

// Summary is a one-line-per-request digest for failure messages.
func (f *Server) Summary() string {
	var sb strings.Builder
	for _, r := range f.Requests() {
		fmt.Fprintf(&sb, "  #%d %s %s route=%s", r.Seq, r.Method, r.Path, r.Route)
		if r.Step >= 0 {
			fmt.Fprintf(&sb, " step=%d", r.Step)
		}
		if m, ok := r.LastUser(); ok {
			fmt.Fprintf(&sb, " last_user=%q", Clip(m.Text(), 120))
		}
		sb.WriteString("\n")
	}
	return sb.String()
}

// Clip trims s to n bytes for a message.
func Clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func (f *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body []byte
	if r.Body != nil {
		var rd io.Reader = r.Body
		if r.Header.Get("Content-Encoding") == "gzip" {
			if gz, err := gzip.NewReader(r.Body); err == nil {
				rd = gz
			}
		}
		body, _ = io.ReadAll(rd)
	}
	req := APIRequest{Time: time.Now(), Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery,
		Header: r.Header.Clone(), Raw: body, Step: -1}
	if len(body) > 0 {
		json.Unmarshal(body, &req.Body)
	}
	f.mu.Lock()
	req.Seq = len(f.reqs) + 1
	f.mu.Unlock()

	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		f.messages(w, &req)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		req.Route = "count_tokens"
		writeJSON(w, 200, map[string]any{"input_tokens": len(body)/4 + 1})
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
		req.Route = "models"
		writeJSON(w, 200, map[string]any{"data": []any{
			map[string]any{"type": "model", "id": "claude-sonnet-4-5", "display_name": "Claude Sonnet 4.5", "created_at": "2025-09-29T00:00:00Z"},
			map[string]any{"type": "model", "id": "claude-haiku-4-5", "display_name": "Claude Haiku 4.5", "created_at": "2025-10-01T00:00:00Z"},
		}, "has_more": false, "first_id": "claude-sonnet-4-5", "last_id": "claude-haiku-4-5"})
	default: // HEAD / GET probes and anything new: an empty success
		req.Route = "other"
		writeJSON(w, 200, map[string]any{})
	}
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
}

func (f *Server) messages(w http.ResponseWriter, req *APIRequest) {
	var mr struct {
		Model  string            `json:"model"`
		Stream bool              `json:"stream"`
		Tools  []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(req.Raw, &mr); err != nil {
		req.Route = "bad_request"
		writeJSON(w, 400, errBody("invalid_request_error", err.Error()))
		return
	}
	assistants := 0
	for _, m := range req.Messages() {
		if m.Role == "assistant" {
			assistants++
		}
	}
	lastUser := ""
	if m, ok := req.LastUser(); ok {
		lastUser = m.Text()
	}

	var step Step
	f.mu.Lock()
	steps := f.script.Steps
	f.mu.Unlock()
	switch rule, ok := f.sideRule(lastUser); {
	case ok:
		req.Route, step = "side_rule", Step{Text: rule.Text}
	case len(mr.Tools) > 0:
		req.Route, req.Step = "main", assistants
		if assistants < len(steps) {
			step = steps[assistants]
		} else {
			step = Step{Text: f.script.DoneText}
		}
	default:
		req.Route, step = "side", Step{Text: f.script.SideText}
	}
	f.writeRateLimits(w)

	if step.Delay > 0 {
		time.Sleep(step.Delay)
	}
	if step.Error != nil && step.ErrorTimes > 0 && req.Step >= 0 {
		f.mu.Lock()
		f.errSeen[req.Step]++
		if f.errSeen[req.Step] > step.ErrorTimes {
			step.Error = nil
		}
		f.mu.Unlock()
	}
	if step.Error != nil {
		st := step.Error.Status
		if st == 0 {
			st = 500
		}
		req.Reply = map[string]any{"error": step.Error}
		writeJSON(w, st, errBody(step.Error.Type, step.Error.Message))
		return
	}

	blocks := f.blocks(step, req.Step)
	stop := step.StopReason
	if stop == "" {
		stop = "end_turn"
		for _, b := range blocks {
			if b["type"] == "tool_use" {
				stop = "tool_use"
			}
		}
	}
	model := mr.Model
	if model == "" {
		model = "claude-sonnet-4-5"
	}
	id := fmt.Sprintf("msg_e2e_%d_%d", time.Now().UnixNano()%1e9, req.Seq)
	inTok, outTok := len(req.Raw)/4+1, 1
	for _, b := range blocks {
		j, _ := json.Marshal(b)
		outTok += len(j) / 4
	}
	req.Reply = map[string]any{"id": id, "stream": mr.Stream, "stop_reason": stop, "content": blocks}
	usage := map[string]any{"input_tokens": inTok, "output_tokens": outTok,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	w.Header().Set("request-id", "req_e2e_"+id)

	if !mr.Stream {
		writeJSON(w, 200, map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": model,
			"content": blocks, "stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
		return
	}

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(200)
	fl, _ := w.(http.Flusher)
	send := func(ev string, data map[string]any) {
		data["type"] = ev
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev, b)
		if fl != nil {
			fl.Flush()
		}
	}
	send("message_start", map[string]any{"message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": inTok, "output_tokens": 1,
			"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
	}})
	send("ping", map[string]any{})
	for i, b := range blocks {
		switch b["type"] {
		case "text":
			send("content_block_start", map[string]any{"index": i,
				"content_block": map[string]any{"type": "text", "text": ""}})
			for _, c := range chunks(b["text"].(string), 40) {
				send("content_block_delta", map[string]any{"index": i,
					"delta": map[string]any{"type": "text_delta", "text": c}})
			}
		case "tool_use":
			send("content_block_start", map[string]any{"index": i,
				"content_block": map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}})
			in, _ := json.Marshal(b["input"])
			for _, c := range chunks(string(in), 60) {
				send("content_block_delta", map[string]any{"index": i,
					"delta": map[string]any{"type": "input_json_delta", "partial_json": c}})
			}
		}
		send("content_block_stop", map[string]any{"index": i})
	}
	send("message_delta", map[string]any{
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"input_tokens": inTok, "output_tokens": outTok,
			"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}})
	send("message_stop", map[string]any{})
}

func (f *Server) sideRule(lastUser string) (SideRule, bool) {
	for _, r := range f.script.SideRules {
		if r.Match != "" && strings.Contains(lastUser, r.Match) {
			return r, true
		}
	}
	return SideRule{}, false
}

// blocks builds the reply's content blocks for a step, substituting the
// run's ${VARS} in tool inputs and text.
func (f *Server) blocks(step Step, stepIdx int) []map[string]any {
	var out []map[string]any
	if step.Text != "" {
		out = append(out, map[string]any{"type": "text", "text": f.subst(step.Text)})
	}
	for i, tu := range step.Tools {
		id := tu.ID
		if id == "" {
			id = fmt.Sprintf("toolu_e2e_%02d_%d", stepIdx, i)
		}
		in, _ := f.substAny(tu.Input).(map[string]any)
		if in == nil {
			in = map[string]any{}
		}
		out = append(out, map[string]any{"type": "tool_use", "id": id, "name": tu.Name, "input": in})
	}
	if len(out) == 0 {
		out = append(out, map[string]any{"type": "text", "text": "OK."})
	}
	return out
}

func (f *Server) subst(s string) string {
	for k, v := range f.vars {
		s = strings.ReplaceAll(s, "${"+k+"}", v)
	}
	return s
}

func (f *Server) substAny(v any) any {
	switch t := v.(type) {
	case string:
		return f.subst(t)
	case []any:
		out := make([]any, len(t))
		for i := range t {
			out[i] = f.substAny(t[i])
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, val := range t {
			out[k] = f.substAny(val)
		}
		return out
	}
	return v
}

// chunks splits s into pieces of about n bytes without breaking UTF-8.
func chunks(s string, n int) []string {
	if s == "" {
		return []string{""}
	}
	var out []string
	for len(s) > 0 {
		i := n
		if i >= len(s) {
			i = len(s)
		} else {
			for i < len(s) && (s[i]&0xC0) == 0x80 {
				i++
			}
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}

func errBody(typ, msg string) map[string]any {
	if typ == "" {
		typ = "api_error"
	}
	return map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
