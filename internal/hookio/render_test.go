package hookio

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/event"
)

func deny(reason string) event.Decision {
	return event.Decision{Verdict: event.Deny, RuleID: "test:rule", Mode: "deny", Reason: reason}
}

func TestRenderTable(t *testing.T) {
	tests := []struct {
		name       string
		ev         event.Name
		d          event.Decision
		wantJSON   string // exact stdout (without newline); "" = no stdout
		wantExit   int
		wantStderr string
	}{
		{"allow is silence", event.PreToolUse, event.Decision{Verdict: event.Allow}, "", 0, ""},
		{"audit is silence", event.PreToolUse, event.Decision{Verdict: event.Audit, RuleID: "r", Reason: "x"}, "", 0, ""},
		{"zero decision is silence", event.Stop, event.Decision{}, "", 0, ""},
		{"PreToolUse deny", event.PreToolUse, deny("no rm"),
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"warden [test:rule]: no rm"}}`, 0, ""},
		{"PreToolUse ask", event.PreToolUse, event.Decision{Verdict: event.Ask, RuleID: "r", Reason: "sure?"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"warden [r]: sure?"}}`, 0, ""},
		{"PreToolUse warn tells Claude and the user", event.PreToolUse, event.Decision{Verdict: event.Warn, RuleID: "r", Reason: "big file"},
			`{"systemMessage":"warden [r]: big file","hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"warden [r]: big file"}}`, 0, ""},
		{"PreToolUse context only", event.PreToolUse, event.Decision{Context: "remember"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"remember"}}`, 0, ""},
		{"task agent: allow out loud", event.PreToolUse, event.Decision{Verdict: event.Allow, Explicit: true},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`, 0, ""},
		{"task agent: a warning still allows out loud", event.PreToolUse, event.Decision{Verdict: event.Warn, RuleID: "r", Reason: "big file", Explicit: true},
			`{"systemMessage":"warden [r]: big file","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","additionalContext":"warden [r]: big file"}}`, 0, ""},
		{"task agent: deny stays deny", event.PreToolUse, event.Decision{Verdict: event.Deny, RuleID: "r", Reason: "no", Explicit: true},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"warden [r]: no"}}`, 0, ""},
		{"task agent: ask stays ask", event.PreToolUse, event.Decision{Verdict: event.Ask, RuleID: "r", Reason: "sure?", Explicit: true},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"warden [r]: sure?"}}`, 0, ""},
		{"explicit means nothing where no permission is decided", event.PostToolUse, event.Decision{Explicit: true}, "", 0, ""},
		{"PreModelSwitch deny", event.PreModelSwitch, deny("stay"),
			`{"hookSpecificOutput":{"hookEventName":"PreModelSwitch","permissionDecision":"deny","permissionDecisionReason":"warden [test:rule]: stay"}}`, 0, ""},
		{"PermissionRequest deny uses decision.behavior (exit 2 is ignored there)", event.PermissionRequest, deny("no"),
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"warden [test:rule]: no"}}}`, 0, ""},
		{"PermissionRequest ask becomes a notice", event.PermissionRequest, event.Decision{Verdict: event.Ask, Reason: "hm"},
			`{"systemMessage":"warden: hm"}`, 0, ""},
		{"UserPromptSubmit block", event.UserPromptSubmit, deny("not now"),
			`{"decision":"block","reason":"warden [test:rule]: not now"}`, 0, ""},
		{"UserPromptSubmit user command reply", event.UserPromptSubmit,
			event.Decision{Verdict: event.Deny, RuleID: "usercmd:status", UserReply: "warden is on"},
			`{"decision":"block","reason":"warden is on"}`, 0, ""},
		{"UserPromptSubmit context", event.UserPromptSubmit, event.Decision{Context: "ctx"},
			`{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ctx"}}`, 0, ""},
		{"Stop block keeps Claude going", event.Stop, deny("tests not run"),
			`{"decision":"block","reason":"warden [test:rule]: tests not run"}`, 0, ""},
		{"SubagentStop block", event.SubagentStop, deny("more"),
			`{"decision":"block","reason":"warden [test:rule]: more"}`, 0, ""},
		{"PostToolUse block is feedback", event.PostToolUse, deny("secret in output"),
			`{"decision":"block","reason":"warden [test:rule]: secret in output"}`, 0, ""},
		{"PostToolUse context", event.PostToolUse, event.Decision{Context: "slow down"},
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"slow down"}}`, 0, ""},
		{"PostToolUseFailure context", event.PostToolUseFailure, event.Decision{Context: "ack the error"},
			`{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"ack the error"}}`, 0, ""},
		{"PreCompact block", event.PreCompact, deny("not yet"),
			`{"decision":"block","reason":"warden [test:rule]: not yet"}`, 0, ""},
		{"ConfigChange block", event.ConfigChange, deny("hooks are protected"),
			`{"decision":"block","reason":"warden [test:rule]: hooks are protected"}`, 0, ""},
		{"TaskCreated block", event.TaskCreated, deny("queue full"),
			`{"decision":"block","reason":"warden [test:rule]: queue full"}`, 0, ""},
		{"TaskCompleted blocks by exit 2", event.TaskCompleted, deny("not done"), "", 2, "warden [test:rule]: not done"},
		{"TeammateIdle blocks by exit 2", event.TeammateIdle, deny("keep working"), "", 2, "warden [test:rule]: keep working"},
		{"Elicitation blocks by exit 2", event.Elicitation, deny("no"), "", 2, "warden [test:rule]: no"},
		{"ElicitationResult blocks by exit 2", event.ElicitationResult, deny("no"), "", 2, "warden [test:rule]: no"},
		{"WorktreeCreate blocks by exit 2", event.WorktreeCreate, deny("no"), "", 2, "warden [test:rule]: no"},
		{"SessionStart cannot block: deny becomes a notice and context", event.SessionStart, deny("config broken"),
			`{"systemMessage":"warden [test:rule]: config broken","hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"warden [test:rule]: config broken"}}`, 0, ""},
		{"SessionStart briefing", event.SessionStart, event.Decision{Context: "last session: main, 2 uncommitted"},
			`{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"last session: main, 2 uncommitted"}}`, 0, ""},
		{"SessionStart system message", event.SessionStart, event.Decision{SystemMessage: "config problem"},
			`{"systemMessage":"config problem"}`, 0, ""},
		{"SessionEnd cannot block and shows nothing", event.SessionEnd, deny("x"), "", 0, ""},
		{"StopFailure ignores output", event.StopFailure, deny("x"), "", 0, ""},
		{"Notification deny becomes context only", event.Notification, deny("x"),
			`{"hookSpecificOutput":{"hookEventName":"Notification","additionalContext":"warden [test:rule]: x"}}`, 0, ""},
		{"PermissionDenied cannot block", event.PermissionDenied, deny("x"), `{"systemMessage":"warden [test:rule]: x"}`, 0, ""},
		{"InstructionsLoaded ignores output", event.InstructionsLoaded, deny("x"), "", 0, ""},
		{"unknown event: ask never leaks", event.Name("FutureEvent"), event.Decision{Verdict: event.Ask, Reason: "x"}, "", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := Render(tt.ev, tt.d)
			if got := strings.TrimSuffix(string(out.Stdout), "\n"); got != tt.wantJSON {
				t.Errorf("stdout\n got %s\nwant %s", got, tt.wantJSON)
			}
			if out.Exit != tt.wantExit {
				t.Errorf("exit = %d, want %d", out.Exit, tt.wantExit)
			}
			if out.Stderr != tt.wantStderr {
				t.Errorf("stderr = %q, want %q", out.Stderr, tt.wantStderr)
			}
		})
	}
}

// TestRenderProtocolInvariants checks every event × verdict against the
// rules of claude-code-hooks.md §3: exit 0 with at most one JSON object, or
// exit 2 with the reason on stderr and nothing on stdout; hookSpecificOutput
// always names the current event; exit 2 only where it is the documented way
// to block.
func TestRenderProtocolInvariants(t *testing.T) {
	verdicts := []event.Verdict{event.Allow, event.Audit, event.Warn, event.Ask, event.Deny}
	for _, ev := range append(append([]event.Name{}, event.All...), "SomethingNew") {
		for _, v := range verdicts {
			d := event.Decision{Verdict: v, RuleID: "r", Reason: "because", Context: "ctx", SystemMessage: "sys"}
			out := Render(ev, d)
			switch out.Exit {
			case 0:
				if out.Stderr != "" {
					t.Errorf("%s/%s: stderr on exit 0: %q", ev, v, out.Stderr)
				}
				if len(out.Stdout) == 0 {
					continue
				}
				var obj map[string]json.RawMessage
				if err := json.Unmarshal(out.Stdout, &obj); err != nil {
					t.Errorf("%s/%s: stdout is not one JSON object: %s", ev, v, out.Stdout)
					continue
				}
				if raw, ok := obj["hookSpecificOutput"]; ok {
					var hso struct {
						HookEventName string `json:"hookEventName"`
					}
					json.Unmarshal(raw, &hso)
					if hso.HookEventName != string(ev) {
						t.Errorf("%s/%s: hookEventName = %q", ev, v, hso.HookEventName)
					}
				}
				if _, ok := obj["decision"]; ok && SpecFor(ev).Block != TopLevelDecision && d.UserReply == "" {
					t.Errorf("%s/%s: top-level decision on an event that does not take it", ev, v)
				}
			case 2:
				if len(out.Stdout) != 0 {
					t.Errorf("%s/%s: stdout with exit 2", ev, v)
				}
				if out.Stderr == "" {
					t.Errorf("%s/%s: exit 2 without a reason", ev, v)
				}
				if SpecFor(ev).Block != ExitTwo {
					t.Errorf("%s/%s: exit 2 on an event that blocks another way", ev, v)
				}
			default:
				t.Errorf("%s/%s: exit %d", ev, v, out.Exit)
			}
		}
	}
}

func TestEveryEventHasASpec(t *testing.T) {
	if len(event.All) != 33 {
		t.Fatalf("want the 33 events of Claude Code 2.1.330, have %d", len(event.All))
	}
	for _, ev := range event.All {
		s, ok := specs[ev]
		if !ok {
			t.Errorf("%s: no spec", ev)
			continue
		}
		if s.Budget() <= 0 || s.Budget() >= time.Duration(s.Timeout)*time.Second {
			t.Errorf("%s: budget %v not inside timeout %ds", ev, s.Budget(), s.Timeout)
		}
	}
	if SpecFor(event.PostToolUse).Timeout != 360 {
		t.Errorf("PostToolUse timeout must leave room for pacing sleeps (360 s)")
	}
	if SpecFor(event.UserPromptSubmit).Timeout > 30 {
		t.Errorf("UserPromptSubmit is capped at 30 s by Claude Code")
	}
}

func TestClipLongText(t *testing.T) {
	long := strings.Repeat("é", 20000)
	out := Render(event.PreToolUse, event.Decision{Context: long})
	var o struct {
		HSO struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out.Stdout, &o); err != nil {
		t.Fatal(err)
	}
	if n := len([]rune(o.HSO.AdditionalContext)); n > 10000 {
		t.Errorf("context has %d characters, cap is 10000", n)
	}
}
