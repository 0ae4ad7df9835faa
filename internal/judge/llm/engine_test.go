package llm

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

	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// reply is one scripted answer of the fake Messages API.
type reply struct {
	status     int
	errType    string
	retryAfter string
	text       string        // a 200 reply's text
	raw        string        // a 200 reply's raw body (malformed JSON)
	delay      time.Duration // before answering
}

// fakeAPI speaks the Messages API (non-streaming) from a per-model script;
// a model's replies are used in order, the last one repeats.
type fakeAPI struct {
	t      *testing.T
	srv    *httptest.Server
	mu     sync.Mutex
	script map[string][]reply
	seen   map[string]int
	reqs   []apiReq
}

type apiReq struct {
	Model    string
	Messages []struct {
		Role    string `json:"role"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	} `json:"messages"`
	Header http.Header
}

func (r apiReq) lastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" && len(r.Messages[i].Content) > 0 {
			return r.Messages[i].Content[0].Text
		}
	}
	return ""
}

func newFakeAPI(t *testing.T, script map[string][]reply) *fakeAPI {
	f := &fakeAPI{t: t, script: script, seen: map[string]int{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/messages" {
		http.Error(w, "not found", 404)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var q apiReq
	json.Unmarshal(body, &q)
	var m struct {
		Model string `json:"model"`
	}
	json.Unmarshal(body, &m)
	q.Model, q.Header = m.Model, r.Header.Clone()
	f.mu.Lock()
	f.reqs = append(f.reqs, q)
	rs := f.script[m.Model]
	n := f.seen[m.Model]
	f.seen[m.Model]++
	f.mu.Unlock()
	if len(rs) == 0 {
		writeErr(w, 404, "not_found_error", "unknown model "+m.Model)
		return
	}
	if n >= len(rs) {
		n = len(rs) - 1
	}
	rp := rs[n]
	if rp.delay > 0 {
		select {
		case <-time.After(rp.delay):
		case <-r.Context().Done():
			return
		}
	}
	if rp.status != 0 && rp.status != 200 {
		if rp.retryAfter != "" {
			w.Header().Set("Retry-After", rp.retryAfter)
		}
		writeErr(w, rp.status, rp.errType, "scripted error")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if rp.raw != "" {
		io.WriteString(w, rp.raw)
		return
	}
	json.NewEncoder(w).Encode(map[string]any{
		"id": "msg_test", "type": "message", "role": "assistant", "model": m.Model,
		"content":     []any{map[string]any{"type": "text", "text": rp.text}},
		"stop_reason": "end_turn", "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 1000, "output_tokens": 20,
			"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
	})
}

func writeErr(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
}

func (f *fakeAPI) requests() []apiReq {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]apiReq(nil), f.reqs...)
}

func (f *fakeAPI) provider() Provider {
	env := map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": f.srv.URL}
	return NewAnthropic(func(k string) string { return env[k] })
}

type memRecorder struct {
	mu   sync.Mutex
	recs []Record
}

func (m *memRecorder) RecordJudgement(_ context.Context, r Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.recs = append(m.recs, r)
	return nil
}

func tempoReq(models ...string) *judge.Request {
	return &judge.Request{Judge: "tempo", Kind: judge.KindTempo, Tier: "sonnet", Models: models,
		Provider: judge.ProviderAnthropic, Prompt: "Is the work done?", DeadlineMS: 5000, FormatRetries: 2,
		SessionID: "s1", Record: true}
}

func TestFallbackOn429WithRetryAfter(t *testing.T) {
	f := newFakeAPI(t, map[string][]reply{
		"big":   {{status: 429, errType: "rate_limit_error", retryAfter: "30"}},
		"small": {{text: "BLOCKED: the tests were not run"}},
	})
	rec := &memRecorder{}
	var slept []time.Duration
	e := &Engine{Provider: f.provider(), Recorder: rec,
		Sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }}
	resp := e.Ask(context.Background(), tempoReq("big", "small"))
	if resp.FailedOpen || resp.Verdict.Pass || resp.Verdict.Reason != "the tests were not run" {
		t.Fatalf("response %+v, want BLOCKED from the fallback model", resp)
	}
	if resp.Model != "small" || resp.Attempts != 2 || len(resp.Fallbacks) != 1 || !strings.HasPrefix(resp.Fallbacks[0], "big: 429") {
		t.Errorf("model %q attempts %d fallbacks %q, want small after one 429 fallback", resp.Model, resp.Attempts, resp.Fallbacks)
	}
	if len(slept) != 0 {
		t.Errorf("slept %v: with a next model the engine must not wait for Retry-After", slept)
	}
	if got := f.requests(); len(got) != 2 || got[0].Model != "big" || got[1].Model != "small" {
		t.Errorf("requests %+v, want big then small", got)
	}
	if got := f.requests()[0].Header.Get("X-Api-Key"); got != "sk-ant-test" {
		t.Errorf("x-api-key %q, want the key from ANTHROPIC_API_KEY", got)
	}
	if len(rec.recs) != 1 || rec.recs[0].Response.Model != "small" || rec.recs[0].Response.TokensIn != 1000 {
		t.Errorf("records %+v, want one with the final model and tokens", rec.recs)
	}
}

func TestRetryAfterOnLastModel(t *testing.T) {
	f := newFakeAPI(t, map[string][]reply{
		"only": {{status: 429, errType: "rate_limit_error", retryAfter: "1"}, {text: "APPROVED"}},
	})
	var slept []time.Duration
	e := &Engine{Provider: f.provider(),
		Sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }}
	resp := e.Ask(context.Background(), tempoReq("only"))
	if !resp.Verdict.Pass || resp.FailedOpen || resp.Attempts != 2 {
		t.Fatalf("response %+v, want APPROVED after waiting once", resp)
	}
	if len(slept) != 1 || slept[0] != time.Second {
		t.Errorf("slept %v, want the 1 s Retry-After once", slept)
	}
}

func TestFallbackOn529AndFailOpenWhenAllOverloaded(t *testing.T) {
	f := newFakeAPI(t, map[string][]reply{
		"a": {{status: 529, errType: "overloaded_error"}},
		"b": {{status: 529, errType: "overloaded_error"}},
	})
	e := &Engine{Provider: f.provider()}
	resp := e.Ask(context.Background(), tempoReq("a", "b"))
	if !resp.FailedOpen || !resp.Verdict.Pass || !strings.Contains(resp.Error, "overloaded") {
		t.Fatalf("response %+v, want a fail-open passing verdict naming the overload", resp)
	}
	if resp.Attempts != 2 {
		t.Errorf("attempts %d, want 2 (a, then b)", resp.Attempts)
	}
}

func TestMalformedJSONFallsBackThenFailsOpen(t *testing.T) {
	f := newFakeAPI(t, map[string][]reply{
		"a": {{raw: `{"id": "msg_x", "content": [ {"type": "te`}},
		"b": {{text: "APPROVED"}},
	})
	e := &Engine{Provider: f.provider()}
	if resp := e.Ask(context.Background(), tempoReq("a", "b")); !resp.Verdict.Pass || resp.FailedOpen || resp.Model != "b" {
		t.Errorf("response %+v, want APPROVED from b after a's malformed body", resp)
	}
	resp := e.Ask(context.Background(), tempoReq("a"))
	if !resp.FailedOpen || !resp.Verdict.Pass {
		t.Errorf("response %+v, want fail open when the only model answers garbage", resp)
	}
}

func TestDeadlineFailsOpen(t *testing.T) {
	// The reply would take 30 s; returning well before it shows the 300 ms
	// deadline cut the call (the margin is wide so a loaded machine does
	// not fail the test).
	f := newFakeAPI(t, map[string][]reply{"slow": {{text: "BLOCKED: nope", delay: 30 * time.Second}}})
	rec := &memRecorder{}
	e := &Engine{Provider: f.provider(), Recorder: rec}
	req := tempoReq("slow")
	req.DeadlineMS = 300
	start := time.Now()
	resp := e.Ask(context.Background(), req)
	if el := time.Since(start); el > 10*time.Second {
		t.Errorf("Ask took %v past a 300 ms deadline", el)
	}
	if !resp.FailedOpen || !resp.Verdict.Pass || !strings.Contains(resp.Error, "deadline") {
		t.Fatalf("response %+v, want a fail-open pass naming the deadline", resp)
	}
	if len(rec.recs) != 1 || !rec.recs[0].Response.FailedOpen {
		t.Errorf("the timed-out call was not recorded as failed open: %+v", rec.recs)
	}
}

func TestWrongFormatTwiceThenRight(t *testing.T) {
	f := newFakeAPI(t, map[string][]reply{"m": {
		{text: "I think the work looks mostly fine overall."},
		{text: "Sure! Everything is good."},
		{text: "**BLOCKED:** the README was not updated"},
	}})
	e := &Engine{Provider: f.provider()}
	resp := e.Ask(context.Background(), tempoReq("m"))
	if resp.FailedOpen || resp.Verdict.Pass || resp.Verdict.Reason != "the README was not updated" {
		t.Fatalf("response %+v, want BLOCKED on the third reply", resp)
	}
	if resp.Attempts != 3 || resp.TokensIn != 3000 || resp.TokensOut != 60 {
		t.Errorf("attempts %d tokens %d/%d, want 3 attempts and their tokens summed", resp.Attempts, resp.TokensIn, resp.TokensOut)
	}
	reqs := f.requests()
	if len(reqs) != 3 || len(reqs[2].Messages) != 5 {
		t.Fatalf("third request has %d messages, want 5 (prompt, reply, correction, reply, correction)", len(reqs[2].Messages))
	}
	if !strings.Contains(reqs[2].lastUser(), "did not follow the required format") ||
		!strings.Contains(reqs[2].lastUser(), "BLOCKED: <") {
		t.Errorf("corrective instruction %q does not teach the format", reqs[2].lastUser())
	}

	// Three wrong replies with two retries allowed: fail open.
	f2 := newFakeAPI(t, map[string][]reply{"m": {{text: "Looks good to me."}}})
	resp = (&Engine{Provider: f2.provider()}).Ask(context.Background(), tempoReq("m"))
	if !resp.FailedOpen || resp.Attempts != 3 {
		t.Errorf("response %+v, want fail open after 1 + 2 attempts", resp)
	}
}

func TestAppealRunsOnDenial(t *testing.T) {
	f := newFakeAPI(t, map[string][]reply{"h": {{text: "DENY: deletes the build directory"}}, "h2": {{text: "OVERTURN"}}})
	e := &Engine{Provider: f.provider()}
	req := &judge.Request{Judge: "tool-approve", Kind: judge.KindApprove, Models: []string{"h"}, Provider: "anthropic",
		Prompt: "approve?", DeadlineMS: 5000, OnFail: &judge.Request{Judge: "appeal", Kind: judge.KindAppeal,
			Models: []string{"h2"}, Provider: "anthropic", Prompt: "appeal?", DeadlineMS: 5000}}
	resp := e.Ask(context.Background(), req)
	if resp.Verdict.Pass || resp.Appeal == nil || !resp.Final().Verdict.Pass {
		t.Fatalf("response %+v, want DENY then an OVERTURN appeal", resp)
	}
}

func TestRecordingInStore(t *testing.T) {
	f := newFakeAPI(t, map[string][]reply{"claude-haiku-5-5": {{text: "APPROVED"}}})
	db := filepath.Join(t.TempDir(), "warden.db")
	rec := &StoreRecorder{Open: func(ctx context.Context) (JudgementStore, error) { return sqlite.Open(ctx, db) }}
	e := &Engine{Provider: f.provider(), Recorder: rec}
	resp := e.Ask(context.Background(), tempoReq("claude-haiku-5-5"))
	if !resp.Verdict.Pass {
		t.Fatal(resp)
	}
	rec.Close() // recorded, and closed as the binaries do
	st, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	js, err := st.Judgements(context.Background(), sqlite.JudgementFilter{SessionID: "s1"})
	if err != nil || len(js) != 1 {
		t.Fatalf("judgements %v %v, want one", js, err)
	}
	j := js[0]
	want := EstimateCost("claude-haiku-5-5", 1000, 20)
	if j.Judge != "tempo" || j.Model != "claude-haiku-5-5" || j.TokensIn != 1000 || j.TokensOut != 20 ||
		j.Verdict != "pass" || j.Decision != "APPROVED" || j.CostUSD != want || want <= 0 || j.Provider != "anthropic" {
		t.Errorf("recorded %+v, want tempo/claude-haiku-5-5 1000/20 pass APPROVED cost %v", j, want)
	}
}

// fakeClaude writes a shell script that answers like `claude -p
// --output-format json`: each call appends its args and WARDEN_JUDGE_NESTED
// to a log and answers the next line of replies (the last one repeats).
func fakeClaude(t *testing.T, replies ...string) (bin, log string) {
	dir := t.TempDir()
	log = filepath.Join(dir, "calls.log")
	var cases strings.Builder
	for i, r := range replies {
		fmt.Fprintf(&cases, "  %d) cat <<'JSON'\n%s\nJSON\n  ;;\n", i+1, r)
	}
	script := fmt.Sprintf(`#!/bin/sh
n=$(( $(cat %[1]q.n 2>/dev/null || echo 0) + 1 ))
echo $n > %[1]q.n
cat > /dev/null
echo "args=$* nested=$WARDEN_JUDGE_NESTED" >> %[1]q
[ $n -gt %[2]d ] && n=%[2]d
case $n in
%[3]s esac
`, log, len(replies), cases.String())
	bin = filepath.Join(dir, "claude")
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, log
}

func TestClaudeCLI(t *testing.T) {
	bin, log := fakeClaude(t,
		`{"type":"result","subtype":"success","is_error":true,"result":"API Error: 529 {\"type\":\"overloaded_error\"}"}`,
		`{"type":"result","subtype":"success","is_error":false,"result":"Looking at it.\nBLOCKED: no tests","total_cost_usd":0.0123,"usage":{"input_tokens":500,"output_tokens":9}}`)
	e := &Engine{Provider: &ClaudeCLI{Path: bin}}
	req := tempoReq("opus-x", "sonnet-x")
	req.Provider = judge.ProviderClaudeCLI
	resp := e.Ask(context.Background(), req)
	if resp.FailedOpen || resp.Verdict.Pass || resp.Verdict.Reason != "no tests" || resp.Model != "sonnet-x" {
		t.Fatalf("response %+v, want BLOCKED: no tests from the fallback model", resp)
	}
	if resp.CostUSD != 0.0123 || resp.TokensIn != 500 {
		t.Errorf("cost %v tokens %d, want claude's own figures", resp.CostUSD, resp.TokensIn)
	}
	b, _ := os.ReadFile(log)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "-p --output-format json --model opus-x") ||
		!strings.Contains(lines[1], "--model sonnet-x") || !strings.Contains(lines[0], "nested=1") {
		t.Errorf("calls:\n%s\nwant opus-x then sonnet-x, both with WARDEN_JUDGE_NESTED=1", b)
	}
}

func TestClaudeCLIDeadline(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "claude")
	// claude would answer after 30 s: returning well before that shows the
	// 300 ms deadline killed it (wide margin for a loaded machine).
	os.WriteFile(bin, []byte("#!/bin/sh\nexec sleep 30\n"), 0o755)
	e := &Engine{Provider: &ClaudeCLI{Path: bin}}
	req := tempoReq("m")
	req.DeadlineMS = 300
	start := time.Now()
	resp := e.Ask(context.Background(), req)
	if !resp.FailedOpen || time.Since(start) > 10*time.Second {
		t.Errorf("response %+v after %v, want fail open near the 300 ms deadline", resp, time.Since(start))
	}
}

func TestNoneFailsOpen(t *testing.T) {
	resp := (&Engine{Provider: None{}}).Ask(context.Background(), tempoReq("m"))
	if !resp.FailedOpen || !resp.Verdict.Pass {
		t.Errorf("none provider: %+v, want fail open", resp)
	}
}
