package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Each CLI's payload for a shell call, as measured from the real CLIs
// (Codex 0.171.0, Gemini CLI 0.61.0, Copilot CLI 1.0.102), with cmd in it.
func harnessPayload(h, cmd, home string) (args []string, stdin string) {
	c, _ := json.Marshal(cmd)
	switch h {
	case "codex":
		return []string{"--harness", "codex"}, `{"session_id":"cx-1","turn_id":"t1","transcript_path":null,"cwd":"` + home + `","hook_event_name":"PreToolUse","model":"gpt-5.4","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{"command":` + string(c) + `},"tool_use_id":"call_1"}`
	case "gemini":
		return []string{"--harness", "gemini"}, `{"session_id":"gm-1","transcript_path":"/x.jsonl","cwd":"` + home + `","hook_event_name":"BeforeTool","timestamp":"2026-11-28T10:00:00.000Z","tool_name":"run_shell_command","tool_input":{"command":` + string(c) + `,"description":"d"}}`
	case "copilot":
		return []string{"--harness", "copilot", "preToolUse"}, `{"sessionId":"cp-1","timestamp":1764324000000,"cwd":"` + home + `","toolName":"bash","toolArgs":{"command":` + string(c) + `,"description":"d"}}`
	case "copilot-string":
		s, _ := json.Marshal(`{"command":` + string(c) + `}`)
		return []string{"--harness", "copilot", "preToolUse"}, `{"sessionId":"cp-2","timestamp":1764324000000,"cwd":"` + home + `","toolName":"bash","toolArgs":` + string(s) + `}`
	}
	panic(h)
}

func TestEachHarnessDeniesInItsOwnSchema(t *testing.T) {
	for h, want := range map[string]func(t *testing.T, out map[string]any){
		"codex": func(t *testing.T, o map[string]any) {
			hso, _ := o["hookSpecificOutput"].(map[string]any)
			if len(o) != 1 || hso["hookEventName"] != "PreToolUse" || hso["permissionDecision"] != "deny" || hso["permissionDecisionReason"] == "" {
				t.Errorf("codex answer %v", o)
			}
		},
		"gemini": func(t *testing.T, o map[string]any) {
			if o["decision"] != "deny" || o["reason"] == nil || len(o) > 3 {
				t.Errorf("gemini answer %v", o)
			}
			if _, ok := o["hookSpecificOutput"]; ok {
				t.Errorf("gemini ignores hookSpecificOutput: %v", o)
			}
		},
		"copilot": func(t *testing.T, o map[string]any) {
			if len(o) != 2 || o["permissionDecision"] != "deny" || o["permissionDecisionReason"] == "" {
				t.Errorf("copilot answer %v", o)
			}
		},
		"copilot-string": func(t *testing.T, o map[string]any) {
			if o["permissionDecision"] != "deny" {
				t.Errorf("copilot (toolArgs as a string) answer %v", o)
			}
		},
	} {
		t.Run(h, func(t *testing.T) {
			home, _ := env(t)
			userHome := os.Getenv("HOME")
			args, in := harnessPayload(h, "rm -rf ~", userHome)
			out, errs, code := runHook(t, strings.NewReader(in), args...)
			if code != 0 {
				t.Fatalf("exit %d, stderr %s", code, errs)
			}
			var o map[string]any
			if err := json.Unmarshal([]byte(out), &o); err != nil {
				t.Fatalf("answer %q: %v (stderr %s)", out, err, errs)
			}
			want(t, o)
			evs := events(t, home)
			name := strings.TrimSuffix(h, "-string")
			if len(evs) != 1 || evs[0].Harness != name || evs[0].Event != "PreToolUse" || evs[0].Tool != "Bash" || evs[0].Decision != "deny" {
				t.Fatalf("recorded %+v", evs)
			}
			// A benign call is silence, and recorded too.
			args, in = harnessPayload(h, "ls -la", userHome) // in the home itself: a write there (echo hi > f) would ask, overwrite · home data
			if out, errs, _ := runHook(t, strings.NewReader(in), args...); out != "" {
				t.Errorf("benign call answered %q (stderr %s)", out, errs)
			}
			evs = events(t, home)
			if len(evs) != 2 || evs[1].Harness != name || evs[1].Decision != "allow" {
				t.Errorf("recorded %+v", evs)
			}
		})
	}
}

// Copilot CLI also runs the Claude Code hooks of a trusted repository's
// .claude/settings.json. Where warden is installed for Copilot too, that
// twin stays silent and records nothing; where it is not, it answers as
// Copilot's hook.
func TestClaudeHookUnderCopilot(t *testing.T) {
	home, _ := env(t)
	t.Setenv("COPILOT_CLI", "1")
	cop := filepath.Join(t.TempDir(), ".copilot")
	t.Setenv("COPILOT_HOME", cop)
	in := payload("PreToolUse", `"tool_name":"Bash","tool_input":{"command":"rm -rf ~"}`)

	out, _, _ := runHook(t, strings.NewReader(in), "--harness", "claude")
	if !strings.Contains(out, `"permissionDecision":"deny"`) {
		t.Fatalf("Copilot's only warden hook must answer: %q", out)
	}
	if evs := events(t, home); len(evs) != 1 || evs[0].Harness != "copilot" {
		t.Fatalf("recorded %+v", evs)
	}

	if err := os.MkdirAll(filepath.Join(cop, "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cop, "hooks", "warden.json"), []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runHook(t, strings.NewReader(in), "--harness", "claude")
	if out != "" || errs != "" || code != 0 {
		t.Fatalf("the twin must be silent: %q %q %d", out, errs, code)
	}
	if evs := events(t, home); len(evs) != 1 {
		t.Fatalf("the twin recorded: %+v", evs)
	}
}

func TestUnknownHarnessFailsOpen(t *testing.T) {
	env(t)
	out, errs, code := runHook(t, strings.NewReader(payload("PreToolUse", `"tool_name":"Bash","tool_input":{"command":"rm -rf ~"}`)), "--harness", "cursor")
	if out != "" || code != 0 || !strings.Contains(errs, "unknown harness") {
		t.Fatalf("got %q %q %d", out, errs, code)
	}
}
