package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/session"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// judgeEnv: a temp WARDEN_HOME and store, the anthropic provider (a fake
// key), and a fake warden-helper that logs each request and answers with the
// given verdicts in turn (the last repeats).
type judgeEnv struct {
	t     *testing.T
	st    *sqlite.Store
	cfg   *config.Config
	state *session.State
	log   string
}

func newJudgeEnv(t *testing.T, verdicts ...string) *judgeEnv {
	dir := t.TempDir()
	t.Setenv("WARDEN_HOME", filepath.Join(dir, "home"))
	t.Setenv("ANTHROPIC_API_KEY", "sk-test")
	t.Setenv(judge.NestedEnv, "")
	log := filepath.Join(dir, "requests.log")
	var cases strings.Builder
	for i, v := range verdicts {
		pass := v == "APPROVED" || v == "APPROVE" || v == "OK"
		word, reason, found := strings.Cut(v, ": ")
		if !found && !pass {
			word, reason = "FEEDBACK", v
		}
		resp, _ := json.Marshal(judge.Response{Verdict: judge.Verdict{Pass: pass, Decision: word, Reason: reason}, Provider: "anthropic", Model: "m"})
		fmt.Fprintf(&cases, "%d) echo '%s' ;;\n", i+1, resp)
	}
	script := fmt.Sprintf("#!/bin/sh\nn=$(( $(cat %[1]q.n 2>/dev/null || echo 0) + 1 ))\necho $n > %[1]q.n\ncat >> %[1]q\necho >> %[1]q\n[ $n -gt %[2]d ] && n=%[2]d\ncase $n in\n%[3]sesac\n",
		log, len(verdicts), cases.String())
	bin := filepath.Join(dir, "warden-helper")
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(judge.BinEnv, bin)
	st, err := sqlite.Open(context.Background(), filepath.Join(dir, "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cfg := config.Defaults()
	cfg.LLM.Provider = "anthropic"
	return &judgeEnv{t: t, st: st, cfg: cfg, state: &session.State{}, log: log}
}

func (e *judgeEnv) call(ev event.Name, in event.Input) *pipeline.Call {
	in.SessionID = "s1"
	in.HookEventName = ev
	raw, _ := json.Marshal(in)
	in.Raw = raw
	return &pipeline.Call{Event: ev, Input: &in, State: e.state, Config: e.cfg, Store: e.st,
		ProjectDir: "/p", Enabled: true, Now: time.Now()}
}

func (e *judgeEnv) requests() []judge.Request {
	b, _ := os.ReadFile(e.log)
	var out []judge.Request
	dec := json.NewDecoder(strings.NewReader(string(b)))
	for {
		var r judge.Request
		if dec.Decode(&r) != nil {
			break
		}
		out = append(out, r)
	}
	return out
}

func (e *judgeEnv) stop(active bool, last string) event.Decision {
	d, err := runTempo(context.Background(), e.call(event.Stop, event.Input{StopHookActive: active, LastAssistantMessage: last}))
	if err != nil {
		e.t.Fatal(err)
	}
	return d
}

func TestTempoBlocksThenGivesUpAtTheCap(t *testing.T) {
	e := newJudgeEnv(t, "BLOCKED: tests missing")
	runTempo(context.Background(), e.call(event.UserPromptSubmit, event.Input{Prompt: "Add the parser."}))
	for i := 1; i <= 3; i++ {
		d := e.stop(i > 1, "draft")
		if d.Verdict != event.Deny || d.RuleID != "judge:tempo" || !strings.Contains(d.Reason, "tests missing") ||
			!strings.Contains(d.Reason, fmt.Sprintf("block %d of at most 3", i)) {
			t.Fatalf("stop %d: %+v, want a tempo block", i, d)
		}
	}
	d := e.stop(true, "draft")
	if d.Verdict == event.Deny || !strings.Contains(d.SystemMessage, "gave up after 3") {
		t.Fatalf("4th stop: %+v, want allowed with a gave-up notice", d)
	}
	if n := len(e.requests()); n != 3 {
		t.Errorf("%d judge calls, want 3 (none at the cap)", n)
	}
	// The counter restarts: the next stop is judged again.
	if d := e.stop(false, "draft"); d.Verdict != event.Deny {
		t.Errorf("after giving up, the next stop is judged again: %+v", d)
	}
	// A new prompt resets the count.
	runTempo(context.Background(), e.call(event.UserPromptSubmit, event.Input{Prompt: "Go on."}))
	if js := judge.LoadState(e.state); js.TempoBlocks != 0 {
		t.Errorf("blocks %d after a user prompt, want 0", js.TempoBlocks)
	}
}

func TestTempoCapWithStopHookActiveAlwaysAllows(t *testing.T) {
	e := newJudgeEnv(t, "BLOCKED: no")
	e.cfg.Tempo.MaxBlocks = 1
	if d := e.stop(false, "x"); d.Verdict != event.Deny {
		t.Fatalf("first stop: %+v", d)
	}
	if d := e.stop(true, "x"); d.Verdict == event.Deny {
		t.Fatalf("stop_hook_active at the cap: %+v, want allow", d)
	}
}

func TestTempoApprovedAllowsAndResets(t *testing.T) {
	e := newJudgeEnv(t, "BLOCKED: no", "APPROVED")
	e.stop(false, "x")
	if d := e.stop(true, "y"); d.Verdict == event.Deny || d.SystemMessage != "" {
		t.Fatalf("approved stop: %+v", d)
	}
	if js := judge.LoadState(e.state); js.TempoBlocks != 0 {
		t.Errorf("blocks %d after APPROVED, want 0", js.TempoBlocks)
	}
}

func TestTempoSessionOverridePrecedence(t *testing.T) {
	ctx := context.Background()
	e := newJudgeEnv(t, "BLOCKED: no")
	// config on, global off: off.
	e.st.SetSetting(ctx, judge.SettingTempo, "off")
	if d := e.stop(false, "x"); d.Verdict == event.Deny {
		t.Errorf("global off: %+v", d)
	}
	// session on wins over global off.
	e.st.SetSetting(ctx, judge.SessionSetting("s1"), "on")
	if d := e.stop(false, "x"); d.Verdict != event.Deny {
		t.Errorf("session on over global off: %+v", d)
	}
	// session off wins over config on and global on.
	e.st.SetSetting(ctx, judge.SettingTempo, "on")
	e.st.SetSetting(ctx, judge.SessionSetting("s1"), "off")
	if d := e.stop(false, "x"); d.Verdict == event.Deny {
		t.Errorf("session off over global on: %+v", d)
	}
	// config off, session on: on.
	e.cfg.Tempo.Enabled = false
	e.st.SetSetting(ctx, judge.SessionSetting("s1"), "on")
	if d := e.stop(false, "x"); d.Verdict != event.Deny {
		t.Errorf("session on over tempo.enabled = false: %+v", d)
	}
}

func TestTempoUsesLastAssistantMessageWhenTranscriptLags(t *testing.T) {
	e := newJudgeEnv(t, "APPROVED")
	tr := filepath.Join(t.TempDir(), "t.jsonl")
	os.WriteFile(tr, []byte(`{"type":"user","message":{"role":"user","content":"Write the docs."}}
{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"OLD-TEXT from the transcript"}]}}
{"type":"assistant","message":{"id":"m2","role":"assis`), 0o644)
	c := e.call(event.Stop, event.Input{TranscriptPath: tr, LastAssistantMessage: "LIVE-TEXT: docs written"})
	runTempo(context.Background(), c)
	reqs := e.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	p := reqs[0].Prompt
	if !strings.Contains(p, "LIVE-TEXT: docs written") || strings.Contains(p, "OLD-TEXT") || !strings.Contains(p, "Write the docs.") {
		t.Errorf("prompt does not use last_assistant_message over the lagging transcript:\n%s", p)
	}
	if reqs[0].Kind != judge.KindTempo || reqs[0].Judge != "tempo" || len(reqs[0].Models) == 0 || reqs[0].Models[0] != e.cfg.LLM.ModelSonnet {
		t.Errorf("request %+v", reqs[0])
	}
}

func TestTempoMissingHelperFailsOpenAndSaysSoOnce(t *testing.T) {
	e := newJudgeEnv(t, "BLOCKED: no")
	t.Setenv(judge.BinEnv, "")
	t.Setenv("PATH", t.TempDir())
	d1 := e.stop(false, "x")
	d2 := e.stop(false, "x")
	if d1.Verdict == event.Deny || !strings.Contains(d1.SystemMessage, "warden-helper") || d2.SystemMessage != "" {
		t.Errorf("missing helper: %+v then %+v, want allow with one notice", d1, d2)
	}
}

func TestNestedSkipsJudges(t *testing.T) {
	e := newJudgeEnv(t, "BLOCKED: no")
	t.Setenv(judge.NestedEnv, "1")
	if d := e.stop(false, "x"); !d.IsZero() {
		t.Errorf("nested: %+v, want nothing", d)
	}
}

func TestLazyVerdictDeniesNextCallOnce(t *testing.T) {
	ctx := context.Background()
	e := newJudgeEnv(t, "APPROVED")
	e.cfg.Validation.Intent = true
	// Call N was allowed and judged in the background; its verdict failed.
	id, err := e.st.AddPending(ctx, &sqlite.PendingVerdict{SessionID: "s1", Judge: "intent-review", Tool: "Edit",
		Target: "pkg/a.go", Request: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	pre := func() event.Decision {
		d, _ := runJudgePreTool(ctx, e.call(event.PreToolUse, event.Input{ToolName: "Bash", ToolInput: json.RawMessage(`{"command":"ls"}`)}))
		return d
	}
	if d := pre(); !d.IsZero() {
		t.Fatalf("a pending (unfinished) verdict denied: %+v", d)
	}
	e.st.FinishPending(ctx, id, "failed", "the edit deletes the error check")
	d := pre()
	if d.Verdict != event.Deny || !strings.Contains(d.Reason, "the edit deletes the error check") || !strings.Contains(d.Reason, "Edit of pkg/a.go") {
		t.Fatalf("call N+1: %+v, want the failed verdict as a denial", d)
	}
	if d := pre(); !d.IsZero() {
		t.Errorf("call N+2: %+v, want the verdict delivered only once", d)
	}
	// An expired verdict is not delivered.
	old, _ := e.st.AddPending(ctx, &sqlite.PendingVerdict{SessionID: "s1", Judge: "intent-review", Created: time.Now().Add(-6 * time.Minute), Request: []byte(`{}`)})
	e.st.FinishPending(ctx, old, "failed", "stale")
	if d := pre(); !d.IsZero() {
		t.Errorf("expired verdict delivered: %+v", d)
	}
}

func TestIntentStage1DeniesAndStage2Strict(t *testing.T) {
	ctx := context.Background()
	e := newJudgeEnv(t, "The change also deletes the nil check in Load; restore it.")
	e.cfg.Validation.Intent = true
	tr := filepath.Join(t.TempDir(), "t.jsonl")
	write := func(text string) {
		b, _ := json.Marshal(map[string]any{"type": "assistant", "message": map[string]any{"id": "m" + fmt.Sprint(time.Now().UnixNano()), "role": "assistant",
			"content": []any{map[string]any{"type": "text", "text": text}}}})
		f, _ := os.OpenFile(tr, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		f.Write(append(b, '\n'))
		f.Close()
	}
	edit := func() event.Decision {
		d, _ := runJudgePreTool(ctx, e.call(event.PreToolUse, event.Input{TranscriptPath: tr, ToolName: "Edit",
			ToolInput: json.RawMessage(`{"file_path":"/p/pkg/load.go","old_string":"a","new_string":"b"}`)}))
		return d
	}
	write("Let me just fix it.")
	if d := edit(); d.Verdict != event.Deny || d.RuleID != "judge:intent" || !strings.Contains(d.Reason, "FILE: pkg/load.go") {
		t.Fatalf("undeclared edit: %+v", d)
	}
	if n := len(e.requests()); n != 0 {
		t.Errorf("stage 1 failure still called the model %d times", n)
	}
	write("FILE: pkg/load.go\nCHANGES: rename a to b\nGOAL: clearer name")
	d := edit()
	if d.Verdict != event.Deny || d.RuleID != "judge:intent-review" || !strings.Contains(d.Reason, "restore it") {
		t.Fatalf("stage 2 (strict after a denial): %+v, want the reviewer's feedback", d)
	}
	if reqs := e.requests(); len(reqs) != 1 || reqs[0].Kind != judge.KindReview || reqs[0].Models[0] != e.cfg.LLM.ModelOpus ||
		reqs[0].Models[1] != e.cfg.LLM.ModelSonnet || !strings.Contains(reqs[0].Prompt, "rename a to b") {
		t.Errorf("review request: %+v", reqs)
	}
}

func TestJudgesOffReturnAtOnce(t *testing.T) {
	e := newJudgeEnv(t, "BLOCKED: no")
	d, _ := runJudgePreTool(context.Background(), e.call(event.PreToolUse, event.Input{ToolName: "Edit",
		ToolInput: json.RawMessage(`{"file_path":"/p/a.go"}`)}))
	if !d.IsZero() || len(e.state.Values) != 0 {
		t.Errorf("with validation off: %+v, state %v", d, e.state.Values)
	}
}

// A warden agent's task criteria in words reach the completion judge at
// Stop; the ones warden checks itself (committed, clean, run:) do not.
func TestTempoIsToldAnAgentTasksCriteria(t *testing.T) {
	e := newJudgeEnv(t, "APPROVED")
	c := e.call(event.Stop, event.Input{LastAssistantMessage: "done"})
	c.ProjectDir = t.TempDir()
	os.MkdirAll(filepath.Join(c.ProjectDir, ".warden"), 0o755)
	os.WriteFile(filepath.Join(c.ProjectDir, ".warden", "task.json"),
		[]byte(`{"id":"t7","criteria":["committed","run:go test ./...","the README documents the new flag"]}`), 0o644)
	runTempo(context.Background(), c)
	t.Setenv("WARDEN_TASK_ID", "t7")
	runTempo(context.Background(), c)
	reqs := e.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	if strings.Contains(reqs[0].Prompt, "README documents") {
		t.Errorf("criteria told outside an agent:\n%s", reqs[0].Prompt)
	}
	p := reqs[1].Prompt
	if !strings.Contains(p, "(warden task t7) The task is done only when all of these hold:\n- the README documents the new flag") ||
		strings.Contains(p, "go test") || strings.Contains(p, "- committed") {
		t.Errorf("the judge's prompt:\n%s", p)
	}
}
