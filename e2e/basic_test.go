package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/store/keeper"
)

// basicScript: Bash echo, then Write hello.txt in the project, then text.
var basicScript = Script{Steps: []Step{
	{Text: "I'll run a command.", Tools: []ToolUse{{ID: "toolu_echo", Name: "Bash",
		Input: map[string]any{"command": "echo hi-from-e2e", "description": "Print a greeting"}}}},
	{Tools: []ToolUse{{ID: "toolu_write", Name: "Write",
		Input: map[string]any{"file_path": "${CWD}/hello.txt", "content": "hello from the fake model\n"}}}},
	{Text: "All done: printed hi and wrote hello.txt."},
}}

// scenarios is the table of end-to-end runs; features add rows.
var scenarios = []Scenario{
	{
		// The control: the same script with no hooks at all. When this
		// fails, the harness or the CLI is broken, not warden.
		Name:     "control-basic",
		Prompt:   "Say hi with bash, then write hello.txt.",
		Script:   basicScript,
		NoWarden: true,
		Check: func(t *testing.T, r *Run) {
			checkBasicRan(t, r)
			checkNoHookFeedback(t, r)
		},
	},
	{
		Name:   "basic",
		Prompt: "Say hi with bash, then write hello.txt.",
		Script: basicScript,
		Check: func(t *testing.T, r *Run) {
			checkBasicRan(t, r)
			checkNoHookFeedback(t, r)
			if running, err := keeper.Running(r.KeeperLock()); err != nil || !running {
				t.Errorf("no store keeper holds the store after the session (running=%v, err=%v)", running, err)
			}
			sid := r.SessionID()
			evs := r.Events(t)
			seen := map[string]int{}
			var pre, post []string
			for _, e := range evs {
				if e.SessionID != sid {
					t.Errorf("event %s has session %q, claude's session is %q", e, e.SessionID, sid)
				}
				if e.ErrorMsg != "" {
					t.Errorf("event %s recorded an error: %s", e, e.ErrorMsg)
				}
				if e.Decision != "allow" || e.Rule != "" || e.Reason != "" {
					t.Errorf("event %s: decision %q rule %q, want a plain allow (nothing should be blocked)", e, e.Decision, e.Rule)
				}
				if e.Harness != "claude" {
					t.Errorf("event %s: harness %q, want claude", e, e.Harness)
				}
				if !samePath(e.Cwd, r.Proj) {
					t.Errorf("event %s: cwd %q, want %q", e, e.Cwd, r.Proj)
				}
				seen[e.Event]++
				switch e.Event {
				case "PreToolUse":
					pre = append(pre, e.Tool+"/"+e.ToolUseID)
				case "PostToolUse":
					post = append(post, e.Tool+"/"+e.ToolUseID)
					if !e.DurationMS.Valid {
						t.Errorf("event %s: no duration_ms (Claude Code reports it on PostToolUse)", e)
					}
				}
				if e.Tool == "Write" && !samePath(e.Path, filepath.Join(r.Proj, "hello.txt")) {
					t.Errorf("event %s: path %q, want the written file", e, e.Path)
				}
			}
			for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"} {
				if seen[ev] == 0 {
					t.Errorf("store has no %s event for the run (events: %v)", ev, seen)
				}
			}
			want := "Bash/toolu_echo,Write/toolu_write"
			if got := strings.Join(pre, ","); got != want {
				t.Errorf("PreToolUse rows (tool/tool_use_id) = %s, want %s", got, want)
			}
			if got := strings.Join(post, ","); got != want {
				t.Errorf("PostToolUse rows (tool/tool_use_id) = %s, want %s", got, want)
			}
		},
	},
	{
		// A user command typed into the prompt: warden answers it at
		// UserPromptSubmit with decision "block" and it never reaches the
		// model.
		Name:   "user-command",
		Prompt: "warden status",
		Script: Script{Steps: []Step{{Text: "The model should never have seen this prompt."}}},
		Check: func(t *testing.T, r *Run) {
			for _, req := range r.API.Requests() {
				if m, ok := req.LastUser(); ok && strings.Contains(m.Text(), "warden status") {
					t.Errorf("request #%d (%s, route %s) carries the user command to the model: %q",
						req.Seq, req.Path, req.Route, clip(m.Text(), 200))
				}
			}
			if n := len(r.API.MainRequests()); n != 0 {
				t.Errorf("%d main-conversation requests reached the API, want 0", n)
			}
			sid := r.SessionID()
			var ups *EventRow
			evs := r.Events(t)
			for i, e := range evs {
				if e.ErrorMsg != "" {
					t.Errorf("event %s recorded an error", e)
				}
				if e.Event == "UserPromptSubmit" && (sid == "" || e.SessionID == sid) {
					ups = &evs[i]
				}
			}
			if ups == nil {
				t.Fatalf("no UserPromptSubmit event for session %q", sid)
			}
			if ups.Decision != "deny" || ups.Rule != "usercmd:status" {
				t.Errorf("UserPromptSubmit row: decision %q rule %q, want deny usercmd:status", ups.Decision, ups.Rule)
			}
			checkUserCommandShown(t, r, ups)
		},
	},
}

func TestScenarios(t *testing.T) {
	for _, sc := range scenarios {
		t.Run(sc.Name, func(t *testing.T) {
			t.Parallel()
			r := runScenario(t, sc)
			if sc.Check != nil {
				sc.Check(t, r)
			}
		})
	}
}

// checkBasicRan checks the basic script ran unblocked: both tools ran, their
// results went back to the model without errors, the file exists, the
// final text is claude's result.
func checkBasicRan(t *testing.T, r *Run) {
	t.Helper()
	if r.ExitCode != 0 {
		t.Errorf("claude exit code %d", r.ExitCode)
	}
	sid := r.SessionID()
	if sid == "" {
		t.Errorf("no session_id in claude's stream-json output")
	}
	for _, req := range r.API.MainRequests() {
		if h := req.Header.Get("X-Claude-Code-Session-Id"); h != sid {
			t.Errorf("request #%d: X-Claude-Code-Session-Id %q, stream-json session_id %q", req.Seq, h, sid)
		}
	}
	results := r.API.ToolResults()
	echo, ok := results["toolu_echo"]
	switch {
	case !ok:
		t.Errorf("no tool_result for the Bash call went back to the model")
	case echo.IsError:
		t.Errorf("Bash tool_result is an error: %q", echo.ResultText())
	case !strings.Contains(echo.ResultText(), "hi-from-e2e"):
		t.Errorf("Bash tool_result lacks the echo output: %q", echo.ResultText())
	}
	wr, ok := results["toolu_write"]
	switch {
	case !ok:
		t.Errorf("no tool_result for the Write call went back to the model")
	case wr.IsError:
		t.Errorf("Write tool_result is an error: %q", wr.ResultText())
	}
	b, err := os.ReadFile(filepath.Join(r.Proj, "hello.txt"))
	if err != nil || string(b) != "hello from the fake model\n" {
		t.Errorf("hello.txt: %q, %v", b, err)
	}
	if n := len(r.API.MainRequests()); n != 3 {
		t.Errorf("%d main-conversation requests, want 3 (one per step)", n)
	}
	if res := r.Result(); res == nil {
		t.Errorf("no result line in claude's output")
	} else if s, _ := res["result"].(string); !strings.Contains(s, "All done") {
		t.Errorf("result %q lacks the final text", s)
	}
}

// checkUserCommandShown checks how Claude Code 2.1.330 in -p mode shows a
// UserPromptSubmit {"decision":"block","reason":R}: nothing on stderr, no
// model call, no Stop event; stream-json carries a system "informational"
// line whose content is "UserPromptSubmit operation blocked by hook:\nR\n\n
// Original prompt: P" with prompt_submit_outcome {kind: "blocked_by_hook",
// prompt_kept: false, reason: R}, and the final "result" line (subtype
// success, is_error false, num_turns 0) repeats that same text, so R reaches
// the user as the run's result.
func checkUserCommandShown(t *testing.T, r *Run, ups *EventRow) {
	t.Helper()
	if r.ExitCode != 0 {
		t.Errorf("claude exit code %d, want 0", r.ExitCode)
	}
	var reason string
	for _, l := range r.Lines {
		if l["type"] != "system" || l["subtype"] != "informational" {
			continue
		}
		out, _ := l["prompt_submit_outcome"].(map[string]any)
		if out["kind"] != "blocked_by_hook" {
			continue
		}
		reason, _ = out["reason"].(string)
		if kept, _ := out["prompt_kept"].(bool); kept {
			t.Errorf("prompt_submit_outcome.prompt_kept = true")
		}
	}
	if reason == "" {
		t.Fatalf("no system/informational line with prompt_submit_outcome.kind=blocked_by_hook in claude's output")
	}
	// The reason is warden's status text, not a generic refusal.
	for _, want := range []string{"warden", "store: " + r.DBPath()} {
		if !strings.Contains(reason, want) {
			t.Errorf("the block reason shown to the user lacks %q:\n%s", want, reason)
		}
	}
	res := r.Result()
	if res == nil {
		t.Fatalf("no result line in claude's output")
	}
	text, _ := res["result"].(string)
	if isErr, _ := res["is_error"].(bool); isErr {
		t.Errorf("result is_error = true")
	}
	if !strings.Contains(text, "UserPromptSubmit operation blocked by hook") || !strings.Contains(text, reason) {
		t.Errorf("result does not carry the status text:\n%s", text)
	}
	if strings.Contains(string(r.Stderr), "store:") {
		t.Errorf("status text went to stderr too: %s", r.Stderr)
	}
	evs := r.Events(t)
	for _, e := range evs {
		if e.Event == "Stop" && e.SessionID == ups.SessionID {
			t.Errorf("a Stop event was recorded for a prompt that never reached the model: %s", e)
		}
	}
	if !hasEvent(evs, "SessionEnd", ups.SessionID) {
		t.Errorf("no SessionEnd event recorded for session %s", ups.SessionID)
	}
}

// samePath compares two paths after resolving symlinks (a TMPDIR under a
// symlinked /tmp must not fail a check).
func samePath(a, b string) bool {
	if a == b {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

func hasEvent(evs []EventRow, name, sid string) bool {
	for _, e := range evs {
		if e.Event == name && e.SessionID == sid {
			return true
		}
	}
	return false
}

// hookFeedback lists phrases Claude Code puts into the conversation when a
// hook said something (context, an error, a block); a run where warden has
// nothing to say must contain none of them.
var hookFeedback = []string{"hook additional context", "hook error", "blocking error", "blocked by hook",
	"hook feedback", "Stop hook"}

// checkNoHookFeedback checks no request to the model carries hook output,
// and every hook Claude Code reported in stream-json succeeded.
func checkNoHookFeedback(t *testing.T, r *Run) {
	t.Helper()
	for _, req := range r.API.Requests() {
		for _, m := range req.Messages() {
			txt := m.Text()
			for _, p := range hookFeedback {
				if strings.Contains(txt, p) {
					t.Errorf("request #%d: a %s message carries hook output (%q): %q", req.Seq, m.Role, p, clip(txt, 300))
				}
			}
		}
	}
	for _, l := range r.Lines {
		if l["type"] == "system" && l["subtype"] == "hook_response" {
			if l["outcome"] != "success" || l["exit_code"] != float64(0) {
				t.Errorf("hook %v: outcome %v, exit %v, stderr %q", l["hook_name"], l["outcome"], l["exit_code"], l["stderr"])
			}
		}
	}
}
