package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/pipeline"
)

const parserFailure = "exit code 1: --- FAIL: TestParseEmpty (0.00s)\n    parser_test.go:41: Parse(\"\") = <nil>, want ErrEmpty\nFAIL\nFAIL\tgithub.com/acme/cfg/parser\t0.004s"

var testCmd = map[string]any{"command": "go test ./parser/..."}

// post runs the handlers that track failures, as the pipeline would.
func post(t *testing.T, e *judgeEnv, ev event.Name, in event.Input) {
	t.Helper()
	for _, run := range []func(context.Context, *pipeline.Call) (event.Decision, error){runJudgeErrorAck, runJudgePreTool} {
		if _, err := run(context.Background(), e.call(ev, in)); err != nil {
			t.Fatal(err)
		}
	}
}

// failTests: the user asks for a fix; Claude runs the tests, which fail.
func failTests(t *testing.T, e *judgeEnv, tr *transcript) {
	tr.user("Make the parser accept empty input.")
	tr.assistant("Running the parser tests first.", "tu_test", "Bash", testCmd)
	post(t, e, event.PostToolUseFailure, event.Input{ToolName: "Bash", ToolUseID: "tu_test", ToolInput: toolInput(testCmd), Error: parserFailure})
	tr.result("tu_test", parserFailure, true)
}

var parserEdit = map[string]any{"file_path": "/p/parser/parser.go", "old_string": "\treturn nil, nil", "new_string": "\treturn nil, ErrEmpty"}

// editAfter: Claude writes text (a new message) and edits parser.go.
func editAfter(t *testing.T, e *judgeEnv, tr *transcript, text, id string) event.Decision {
	in := toolInput(parserEdit)
	tr.assistant(text, id, "Edit", in)
	return pre(t, e, runJudgeErrorAck, event.Input{TranscriptPath: tr.path, ToolName: "Edit", ToolUseID: id, ToolInput: in})
}

func actErrorAckUnclear(t *testing.T, e *judgeEnv) event.Decision {
	tr := newTranscript(t)
	failTests(t, e, tr)
	return editAfter(t, e, tr, "Hmm, that didn't work. Let me try another approach.", "tu_edit")
}

func pendingFailure(e *judgeEnv) string { return judge.LoadState(e.state).ErrorTool }

func TestErrorAckUnacknowledgedFailureDeniedOnce(t *testing.T) {
	e, api := newModelEnv(t, "OK")
	e.cfg.Validation.ErrorAck = true
	tr := newTranscript(t)
	failTests(t, e, tr)
	if js := judge.LoadState(e.state); js.ErrorTool != "Bash" || js.ErrorTarget != "go test ./parser/..." || !js.AfterTrouble ||
		!strings.Contains(js.ErrorMessage, "TestParseEmpty") {
		t.Fatalf("failure not tracked: %+v", js)
	}
	d := editAfter(t, e, tr, "Next, the empty-input branch.", "tu_edit1")
	if d.Verdict != event.Deny || d.RuleID != "judge:error-ack" || !strings.Contains(d.Reason, "Acknowledge the failure first") ||
		!strings.Contains(d.Reason, `"go test ./parser/..."`) || !strings.Contains(d.Reason, "TestParseEmpty") {
		t.Fatalf("unacknowledged: %+v, want a denial naming the failure", d)
	}
	if pendingFailure(e) != "" {
		t.Error("the failure is still pending after the check")
	}
	if d := editAfter(t, e, tr, "", "tu_edit2"); !d.IsZero() {
		t.Errorf("the retry: %+v, want allowed (one nudge per failure)", d)
	}
	if n := len(api.calls()); n != 0 {
		t.Errorf("%d model requests; the pattern was clear", n)
	}
}

func TestErrorAckAcknowledgedPassesWithoutModel(t *testing.T) {
	e, api := newModelEnv(t, "BLOCK: no")
	e.cfg.Validation.ErrorAck = true
	tr := newTranscript(t)
	failTests(t, e, tr)
	d := editAfter(t, e, tr, "TestParseEmpty fails because Parse returns nil for empty input instead of ErrEmpty. Adding the check.", "tu_edit")
	if !d.IsZero() || pendingFailure(e) != "" || len(api.calls()) != 0 {
		t.Errorf("acknowledged: %+v, pending %q, %d requests; want allowed, cleared, no model", d, pendingFailure(e), len(api.calls()))
	}
}

func TestErrorAckWaitsForAMutatingCall(t *testing.T) {
	e, _ := newModelEnv(t, "OK")
	e.cfg.Validation.ErrorAck = true
	tr := newTranscript(t)
	failTests(t, e, tr)
	for i, in := range []event.Input{
		{ToolName: "Read", ToolInput: toolInput(map[string]any{"file_path": "/p/parser/parser.go"})},
		{ToolName: "Grep", ToolInput: toolInput(map[string]any{"pattern": "ErrEmpty"})},
		{ToolName: "Bash", ToolInput: toolInput(map[string]any{"command": "git diff --stat"})},
	} {
		id := fmt.Sprintf("tu_r%d", i)
		tr.assistant("Looking around.", id, in.ToolName, in.ToolInput)
		in.TranscriptPath, in.ToolUseID = tr.path, id
		if d := pre(t, e, runJudgeErrorAck, in); !d.IsZero() || pendingFailure(e) == "" {
			t.Fatalf("%s: %+v, pending %q; reads neither deny nor clear", in.ToolName, d, pendingFailure(e))
		}
	}
	rm := map[string]any{"command": "rm -rf build/"}
	tr.assistant("Cleaning up.", "tu_rm", "Bash", rm)
	d := pre(t, e, runJudgeErrorAck, event.Input{TranscriptPath: tr.path, ToolName: "Bash", ToolUseID: "tu_rm", ToolInput: toolInput(rm)})
	if d.Verdict != event.Deny {
		t.Errorf("a mutating Bash after the failure, unacknowledged: %+v", d)
	}
}

func TestErrorAckPostToolUseFailureInResult(t *testing.T) {
	e, _ := newModelEnv(t, "OK")
	e.cfg.Validation.ErrorAck = true
	mk := map[string]any{"command": "make build"}
	failed := toolInput(map[string]any{"exit_code": 2, "stdout": "", "stderr": "main.c:12:5: error: implicit declaration of function 'frobnicate'"})
	post(t, e, event.PostToolUse, event.Input{ToolName: "Bash", ToolUseID: "tu_mk", ToolInput: toolInput(mk), ToolResponse: failed})
	if js := judge.LoadState(e.state); js.ErrorTool != "Bash" || !strings.Contains(js.ErrorMessage, "frobnicate") {
		t.Fatalf("a PostToolUse with exit code 2 was not tracked: %+v", js)
	}
	// Output that merely mentions "error" is no failure.
	post(t, e, event.PostToolUse, event.Input{ToolName: "Bash", ToolInput: toolInput(map[string]any{"command": "grep -r error ."}),
		ToolResponse: toolInput(map[string]any{"stdout": "log.go: error handling", "exit_code": 0})})
	if js := judge.LoadState(e.state); js.ErrorTarget != "make build" {
		t.Fatalf("output text replaced the failure: %+v", js)
	}
	// A grep that finds nothing answers "no"; it is no failure.
	post(t, e, event.PostToolUseFailure, event.Input{ToolName: "Bash", ToolInput: toolInput(map[string]any{"command": "grep -rn frobnicate include/"}),
		Error: "Exit code 1"})
	if js := judge.LoadState(e.state); js.ErrorTarget != "make build" || !strings.Contains(js.ErrorMessage, "frobnicate") {
		t.Fatalf("a grep without match replaced the failure: %+v", js)
	}
	// The same call succeeding later: the failure went away.
	post(t, e, event.PostToolUse, event.Input{ToolName: "Bash", ToolInput: toolInput(mk), ToolResponse: toolInput(map[string]any{"exit_code": 0})})
	if pendingFailure(e) != "" {
		t.Error("a successful re-run did not clear the failure")
	}
}

func TestErrorAckForgottenAfterAUserPrompt(t *testing.T) {
	e, api := newModelEnv(t, "BLOCK: no")
	e.cfg.Validation.ErrorAck = true
	tr := newTranscript(t)
	failTests(t, e, tr)
	runTempo(context.Background(), e.call(event.UserPromptSubmit, event.Input{Prompt: "Never mind the tests, just add the doc comment."}))
	tr.user("Never mind the tests, just add the doc comment.")
	if d := editAfter(t, e, tr, "Adding the doc comment.", "tu_doc"); !d.IsZero() || pendingFailure(e) != "" || len(api.calls()) != 0 {
		t.Errorf("after a user prompt: %+v, pending %q", d, pendingFailure(e))
	}
}

func TestErrorAckSkipsCallsClaudeMadeBeforeSeeingTheFailure(t *testing.T) {
	e, _ := newModelEnv(t, "BLOCK: no")
	e.cfg.Validation.ErrorAck = true
	tr := newTranscript(t)
	failTests(t, e, tr)
	// A parallel Edit in the message that ran the tests.
	in := toolInput(parserEdit)
	tr.add(map[string]any{"type": "assistant", "message": map[string]any{"id": fmt.Sprintf("msg_%d", tr.n), "role": "assistant",
		"content": []any{map[string]any{"type": "tool_use", "id": "tu_par", "name": "Edit", "input": parserEdit}}}})
	if d := pre(t, e, runJudgeErrorAck, event.Input{TranscriptPath: tr.path, ToolName: "Edit", ToolUseID: "tu_par", ToolInput: in}); !d.IsZero() || pendingFailure(e) == "" {
		t.Errorf("parallel call: %+v, pending %q; want allowed and still pending", d, pendingFailure(e))
	}
	// The transcript lags: the current call is not in it yet.
	if d := pre(t, e, runJudgeErrorAck, event.Input{TranscriptPath: tr.path, ToolName: "Edit", ToolUseID: "tu_unwritten", ToolInput: in}); !d.IsZero() || pendingFailure(e) == "" {
		t.Errorf("lagging transcript: %+v, pending %q; want allowed (fail open) and still pending", d, pendingFailure(e))
	}
}

// TestErrorAckThroughThePipeline runs the events through the whole
// pipeline, as `warden hook` does: the failure is tracked on
// PostToolUseFailure, a call a policy rule already denied is left alone
// (the failure stays pending), the unacknowledged edit is denied, and
// judge-pretool, running after, counts that denial as trouble.
func TestErrorAckThroughThePipeline(t *testing.T) {
	e, api := newModelEnv(t, "OK")
	e.cfg.Validation.ErrorAck = true
	t.Setenv("HOME", t.TempDir())
	project := t.TempDir()
	run := func(ev event.Name, in event.Input) event.Decision {
		t.Helper()
		in.SessionID, in.HookEventName, in.Cwd = "s1", ev, project
		in.Raw, _ = json.Marshal(in)
		d, _ := pipeline.Run(context.Background(), All(), &pipeline.Call{Event: ev, Input: &in, State: e.state, Config: e.cfg,
			Store: e.st, ProjectDir: project, Enabled: true, Now: time.Now()})
		return d
	}
	tr := newTranscript(t)
	prompt := "Make the parser accept empty input."
	run(event.UserPromptSubmit, event.Input{Prompt: prompt})
	tr.user(prompt)
	tr.assistant("Running the parser tests first.", "tu_test", "Bash", testCmd)
	if d := run(event.PreToolUse, event.Input{TranscriptPath: tr.path, ToolName: "Bash", ToolUseID: "tu_test", ToolInput: toolInput(testCmd)}); d.Verdict == event.Deny {
		t.Fatalf("go test denied: %+v", d)
	}
	run(event.PostToolUseFailure, event.Input{ToolName: "Bash", ToolUseID: "tu_test", ToolInput: toolInput(testCmd), Error: parserFailure})
	tr.result("tu_test", parserFailure, true)
	if pendingFailure(e) != "Bash" {
		t.Fatal("the failure was not tracked through the pipeline")
	}

	rm := map[string]any{"command": "rm -rf /"}
	tr.assistant("Starting over.", "tu_rm", "Bash", rm)
	d := run(event.PreToolUse, event.Input{TranscriptPath: tr.path, ToolName: "Bash", ToolUseID: "tu_rm", ToolInput: toolInput(rm)})
	if d.Verdict != event.Deny || d.RuleID == "judge:error-ack" || pendingFailure(e) == "" {
		t.Fatalf("rm -rf /: %+v, pending %q; want the policy's denial and the failure still pending", d, pendingFailure(e))
	}

	in := toolInput(parserEdit)
	tr.assistant("Next, the empty-input branch.", "tu_edit", "Edit", in)
	d = run(event.PreToolUse, event.Input{TranscriptPath: tr.path, ToolName: "Edit", ToolUseID: "tu_edit", ToolInput: in})
	if d.Verdict != event.Deny || d.RuleID != "judge:error-ack" {
		t.Fatalf("unacknowledged edit: %+v", d)
	}
	if js := judge.LoadState(e.state); !js.AfterTrouble || js.ErrorTool != "" {
		t.Errorf("after the denial: %+v; want AfterTrouble (next judgement strict) and the failure cleared", js)
	}
	if n := len(api.calls()); n != 0 {
		t.Errorf("%d model requests", n)
	}
}
