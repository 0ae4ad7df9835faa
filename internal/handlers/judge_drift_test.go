package handlers

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/pipeline"
)

// checkScenario is one OK/BLOCK judge driven the way Claude Code would:
// on sets its switch, act writes the session so far and makes the call
// the judge must look at, returning the handler's decision.
type checkScenario struct {
	name  string
	on    func(*config.Config)
	model func(*config.Config) string
	act   func(t *testing.T, e *judgeEnv) event.Decision
	// sees are texts the judge's prompt must hold.
	sees []string
}

func checkScenarios() []checkScenario {
	return []checkScenario{
		{name: "claude-md", on: func(c *config.Config) { c.Validation.ClaudeMD = true },
			model: func(c *config.Config) string { return c.LLM.ModelSonnet }, act: actClaudeMD,
			sees: []string{"release script is scripts/release.sh", "Always run `make test` before committing", "when there is time"}},
		{name: "plan-drift", on: func(c *config.Config) { c.Validation.PlanDrift = true },
			model: func(c *config.Config) string { return c.LLM.ModelSonnet }, act: actPlanDrift,
			sees: []string{"raise the timeout to 30 s", "Rewrite the auth module in Rust", "brave-otter.md"}},
		{name: "style-drift", on: func(c *config.Config) { c.Validation.StyleDrift = true },
			model: func(c *config.Config) string { return c.LLM.ModelHaiku }, act: actStyleDrift,
			sees: []string{"Raise the retries", "6 of its 8 changed lines differ only in formatting", "web/config.js"}},
		{name: "error-ack", on: func(c *config.Config) { c.Validation.ErrorAck = true },
			model: func(c *config.Config) string { return c.LLM.ModelHaiku }, act: actErrorAckUnclear,
			sees: []string{"go test ./parser/...", "TestParseEmpty", "that didn't work", "ErrEmpty"}},
	}
}

func pre(t *testing.T, e *judgeEnv, run func(context.Context, *pipeline.Call) (event.Decision, error), in event.Input) event.Decision {
	t.Helper()
	d, err := run(context.Background(), e.call(event.PreToolUse, in))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// actClaudeMD: the user asked for a note; the edit softens the test rule.
func actClaudeMD(t *testing.T, e *judgeEnv) event.Decision {
	dir := t.TempDir()
	file := filepath.Join(dir, "CLAUDE.md")
	os.WriteFile(file, []byte("# acme\n\n- Always run `make test` before committing.\n- Never push to main.\n"), 0o644)
	tr := newTranscript(t)
	tr.user("Add a note to CLAUDE.md that the release script is scripts/release.sh.")
	in := toolInput(map[string]any{"file_path": file, "old_string": "- Always run `make test` before committing.\n",
		"new_string": "- Run `make test` before committing when there is time.\n- Release with scripts/release.sh.\n"})
	tr.assistant("I'll add the release note to CLAUDE.md.", "tu_md", "Edit", in)
	return pre(t, e, runJudgeDrift, event.Input{TranscriptPath: tr.path, ToolName: "Edit", ToolUseID: "tu_md", ToolInput: in})
}

// actPlanDrift: a plan-mode plan that rewrites far more than was asked.
func actPlanDrift(t *testing.T, e *judgeEnv) event.Decision {
	file := filepath.Join(paths.ClaudeDir(), "plans", "brave-otter.md")
	tr := newTranscript(t)
	tr.user("The login times out after 5 s on slow networks; raise the timeout to 30 s.")
	in := toolInput(map[string]any{"file_path": file, "content": "# Plan\n1. Rewrite the auth module in Rust.\n2. Raise the login timeout to 30 s.\n"})
	tr.assistant("Here is my plan.", "tu_plan", "Write", in)
	return pre(t, e, runJudgeDrift, event.Input{TranscriptPath: tr.path, ToolName: "Write", ToolUseID: "tu_plan",
		PermissionMode: "plan", ToolInput: in})
}

// styleEdit changes one value and re-formats the rest of the object.
var styleEdit = map[string]any{"file_path": "/p/web/config.js",
	"old_string": "const opts = {\n  retries: 3,\n  timeout: 1000,\n  verbose: false,\n  mode: 'fast'\n}",
	"new_string": "const opts = {\n    retries: 5,\n    timeout: 1000,\n    verbose: false,\n    mode: \"fast\",\n}"}

func actStyleDrift(t *testing.T, e *judgeEnv) event.Decision {
	tr := newTranscript(t)
	tr.user("Raise the retries in web/config.js to 5.")
	in := toolInput(styleEdit)
	tr.assistant("Raising retries to 5.", "tu_style", "Edit", in)
	return pre(t, e, runJudgeDrift, event.Input{TranscriptPath: tr.path, ToolName: "Edit", ToolUseID: "tu_style", ToolInput: in})
}

func TestCheckJudgesBlockDeniesWithTheReason(t *testing.T) {
	for _, s := range checkScenarios() {
		t.Run(s.name, func(t *testing.T) {
			e, api := newModelEnv(t, "BLOCK: the change goes beyond the request ("+s.name+")")
			s.on(e.cfg)
			d := s.act(t, e)
			if d.Verdict != event.Deny || d.RuleID != "judge:"+s.name || !strings.Contains(d.Reason, "goes beyond the request ("+s.name+")") {
				t.Fatalf("BLOCK: %+v, want a denial with the judge's reason", d)
			}
			calls := api.calls()
			if len(calls) != 1 || calls[0].Model != s.model(e.cfg) {
				t.Fatalf("requests %+v, want one to %s", calls, s.model(e.cfg))
			}
			for _, want := range append(s.sees, "BLOCK: <one or two sentences") {
				if !strings.Contains(calls[0].Prompt, want) {
					t.Errorf("the prompt lacks %q:\n%s", want, calls[0].Prompt)
				}
			}
		})
	}
}

func TestCheckJudgesOKAllows(t *testing.T) {
	for _, s := range checkScenarios() {
		t.Run(s.name, func(t *testing.T) {
			e, api := newModelEnv(t, "OK")
			s.on(e.cfg)
			if d := s.act(t, e); d.Verdict == event.Deny || d.Verdict == event.Ask {
				t.Fatalf("OK: %+v, want allowed", d)
			}
			if n := len(api.calls()); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
	}
}

func TestCheckJudgesOffMakeNoRequests(t *testing.T) {
	for _, s := range checkScenarios() {
		t.Run(s.name, func(t *testing.T) {
			e, api := newModelEnv(t, "BLOCK: no")
			if d := s.act(t, e); !d.IsZero() || len(e.state.Values) != 0 {
				t.Errorf("switch off: %+v, state %v; want nothing done", d, e.state.Values)
			}
			s.on(e.cfg)
			t.Setenv(judge.NestedEnv, "1")
			if d := s.act(t, e); !d.IsZero() {
				t.Errorf("inside a judge's nested claude: %+v, want nothing done", d)
			}
			if n := len(api.calls()); n != 0 {
				t.Errorf("%d requests, want none", n)
			}
		})
	}
}

func TestCheckJudgesFailOpenOnProviderTimeout(t *testing.T) {
	for _, s := range checkScenarios() {
		t.Run(s.name, func(t *testing.T) {
			e, api := newModelEnv(t, "BLOCK: too late to matter")
			api.delay = 20 * time.Second
			e.cfg.LLM.TimeoutMS = 300
			s.on(e.cfg)
			start := time.Now()
			d := s.act(t, e)
			if d.Verdict == event.Deny {
				t.Fatalf("timeout: %+v, want allowed (fail open)", d)
			}
			if el := time.Since(start); el > 5*time.Second {
				t.Errorf("the hook waited %v for a 300 ms judge", el)
			}
			if n := len(api.calls()); n == 0 {
				t.Error("the judge was never asked")
			}
		})
	}
}

func TestStyleDriftPureReformatDeniedWithoutModel(t *testing.T) {
	e, api := newModelEnv(t, "OK")
	e.cfg.Validation.StyleDrift = true
	tr := newTranscript(t)
	tr.user("Add a Close method to the store.")
	old := "func load(p string) error {\n\tf, err := os.Open(p)\n\tif err != nil {\n\t\treturn err\n\t}\n\tdefer f.Close()\n\treturn decode(f)\n}"
	in := toolInput(map[string]any{"file_path": "/p/store/load.go", "old_string": old,
		"new_string": strings.ReplaceAll(old, "\t", "    ")})
	d := pre(t, e, runJudgeDrift, event.Input{TranscriptPath: tr.path, ToolName: "Edit", ToolInput: in})
	if d.Verdict != event.Deny || d.RuleID != "judge:style-drift" || !strings.Contains(d.Reason, "only re-formats") ||
		!strings.Contains(d.Reason, "store/load.go") {
		t.Fatalf("pure re-indentation: %+v, want a deterministic denial", d)
	}
	if n := len(api.calls()); n != 0 {
		t.Errorf("%d requests for an overwhelming re-format, want none", n)
	}
}

func TestStyleDriftSkipsRealEditsAndRequestedFormatting(t *testing.T) {
	e, api := newModelEnv(t, "BLOCK: no")
	e.cfg.Validation.StyleDrift = true
	tr := newTranscript(t)
	tr.user("Run prettier over web/ and fix what it flags.")
	if d := pre(t, e, runJudgeDrift, event.Input{TranscriptPath: tr.path, ToolName: "Edit", ToolInput: toolInput(styleEdit)}); !d.IsZero() {
		t.Errorf("formatting was asked for: %+v", d)
	}
	real := toolInput(map[string]any{"file_path": "/p/a.go", "old_string": "if n > 10 {\n\treturn ErrTooMany\n}",
		"new_string": "if n > limit {\n\treturn fmt.Errorf(\"%d items: %w\", n, ErrTooMany)\n}"})
	if d := pre(t, e, runJudgeDrift, event.Input{ToolName: "Edit", ToolInput: real}); !d.IsZero() {
		t.Errorf("a real edit: %+v", d)
	}
	if n := len(api.calls()); n != 0 {
		t.Errorf("%d requests, want none", n)
	}
}

// A style judgement that StrictReason lets run lazily: the call is allowed
// at once, warden-helper runs detached, and judge-pretool delivers the
// BLOCK on the session's next call.
func TestStyleDriftLazyVerdictDeniesNextCall(t *testing.T) {
	e, api := newModelEnv(t, "BLOCK: the edit re-indents the whole object")
	e.cfg.Validation.StyleDrift = true
	e.state.ToolCount = 10 // past the first calls of the session
	tr := newTranscript(t)
	tr.user("Raise the retries in web/config.js to 5.")
	in := toolInput(styleEdit)
	start := time.Now()
	if d := pre(t, e, runJudgeDrift, event.Input{TranscriptPath: tr.path, ToolName: "Edit", ToolUseID: "tu_l", ToolInput: in}); !d.IsZero() {
		t.Fatalf("lazy call: %+v, want allowed at once", d)
	}
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("a lazy judgement held the hook %v", el)
	}
	next := event.Input{ToolName: "Bash", ToolInput: toolInput(map[string]any{"command": "ls"})}
	deadline := time.Now().Add(15 * time.Second)
	for {
		d := pre(t, e, runJudgePreTool, next)
		if d.Verdict == event.Deny {
			if d.RuleID != "judge:style-drift" || !strings.Contains(d.Reason, "re-indents the whole object") || !strings.Contains(d.Reason, "web/config.js") {
				t.Errorf("delivered: %+v", d)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the lazy verdict was never delivered (requests %+v)", api.calls())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if d := pre(t, e, runJudgePreTool, next); d.Verdict == event.Deny {
		t.Errorf("delivered twice: %+v", d)
	}
}

func TestClaudeMDAndPlanFilesAreStrict(t *testing.T) {
	// Late in a session, lazy mode on, trusted paths (under Claude Code's
	// directory), not plan mode: these files still wait for the judge
	// (StrictReason: a CLAUDE.md or plan file).
	e, api := newModelEnv(t, "BLOCK: weakens a rule")
	e.cfg.Validation.ClaudeMD, e.cfg.Validation.PlanDrift = true, true
	e.state.ToolCount = 50
	for _, file := range []string{filepath.Join(paths.ClaudeDir(), "CLAUDE.md"), filepath.Join(paths.ClaudeDir(), "plans", "a.md")} {
		in := toolInput(map[string]any{"file_path": file, "content": "- Skip the tests when in a hurry.\n"})
		js := judge.LoadState(e.state)
		js.AfterTrouble = false // no earlier denial makes it strict
		js.Save(e.state)
		if d := pre(t, e, runJudgeDrift, event.Input{ToolName: "Write", ToolInput: in}); d.Verdict != event.Deny {
			t.Errorf("%s: %+v, want the strict denial", file, d)
		}
	}
	if n := len(api.calls()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

// A formatter's failure makes re-formatting part of the task in its own
// turn only: one failed gofmt must not switch style checks off for the rest
// of the session.
func TestStyleDriftFormatterFailureCountsOnlyInItsTurn(t *testing.T) {
	e, _ := newModelEnv(t, "OK")
	e.cfg.Validation.StyleDrift = true
	tr := newTranscript(t)
	tr.user("Add a Close method to the store.")
	old := "func load(p string) error {\n\tf, err := os.Open(p)\n\tif err != nil {\n\t\treturn err\n\t}\n\tdefer f.Close()\n\treturn decode(f)\n}"
	in := event.Input{TranscriptPath: tr.path, ToolName: "Edit", ToolInput: toolInput(map[string]any{
		"file_path": "/p/store/load.go", "old_string": old, "new_string": strings.ReplaceAll(old, "\t", "    ")})}
	js := judge.LoadState(e.state)
	js.Prompts, js.LastError, js.LastErrorPrompt = 2, "gofmt -l: store/load.go is not formatted", 2
	js.Save(e.state)
	if d := pre(t, e, runJudgeDrift, in); !d.IsZero() {
		t.Fatalf("re-format right after a gofmt failure in this turn: %+v, want allowed", d)
	}
	js = judge.LoadState(e.state)
	js.Prompts++ // the user's next prompt
	js.Save(e.state)
	if d := pre(t, e, runJudgeDrift, in); d.Verdict != event.Deny || d.RuleID != "judge:style-drift" {
		t.Fatalf("re-format a turn after the gofmt failure: %+v, want the style-drift denial", d)
	}
}
