package handlers_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/testenv"
)

// These tests drive the real `warden hook` binary as Claude Code does: one
// process per event, the same session id, a temp WARDEN_HOME and project.

type sim struct {
	t       *testing.T
	bin     string
	home    string
	project string
	session string
	n       int
}

func newSim(t *testing.T, config string) *sim {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the warden binary")
	}
	bin := testenv.Binary(t, "warden")
	s := &sim{t: t, bin: bin, home: t.TempDir(), project: t.TempDir(), session: "sess-" + t.Name()}
	if config != "" {
		if err := os.WriteFile(filepath.Join(s.home, "config.toml"), []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// result is one hook run's output.
type result struct {
	stdout, stderr string
	code           int
	json           map[string]any
}

// decision is the PreToolUse permissionDecision, "block" for a top-level
// block, or "" for silence.
func (r result) decision() string {
	if r.json == nil {
		return ""
	}
	if d, ok := r.json["decision"].(string); ok {
		return d
	}
	if h, ok := r.json["hookSpecificOutput"].(map[string]any); ok {
		if d, ok := h["permissionDecision"].(string); ok {
			return d
		}
	}
	return ""
}

func (r result) text() string { return r.stdout + r.stderr }

func (s *sim) hook(ev string, fields map[string]any) result {
	s.t.Helper()
	p := map[string]any{"session_id": s.session, "cwd": s.project, "hook_event_name": ev,
		"transcript_path": filepath.Join(s.home, "t.jsonl")}
	for k, v := range fields {
		p[k] = v
	}
	b, _ := json.Marshal(p)
	cmd := exec.Command(s.bin, "hook", "--harness", "claude")
	cmd.Env = append(os.Environ(), "WARDEN_HOME="+s.home, "CLAUDE_PROJECT_DIR="+s.project, "HOME="+s.home)
	cmd.Dir = s.project
	cmd.Stdin = strings.NewReader(string(b))
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		s.t.Fatalf("run hook: %v", err)
	}
	if strings.TrimSpace(r.stdout) != "" {
		if err := json.Unmarshal([]byte(r.stdout), &r.json); err != nil {
			s.t.Fatalf("%s: stdout is not JSON: %q", ev, r.stdout)
		}
	}
	if r.code != 0 {
		s.t.Fatalf("%s: exit %d (%s)", ev, r.code, r.stderr)
	}
	return r
}

func (s *sim) prompt(text string) result {
	return s.hook("UserPromptSubmit", map[string]any{"prompt": text})
}

func (s *sim) pre(tool string, input map[string]any) result {
	s.n++
	return s.hook("PreToolUse", map[string]any{"tool_name": tool, "tool_input": input, "tool_use_id": fmt.Sprintf("t%d", s.n)})
}

func (s *sim) post(tool string, input map[string]any, response any) result {
	return s.hook("PostToolUse", map[string]any{"tool_name": tool, "tool_input": input, "tool_response": response, "tool_use_id": fmt.Sprintf("t%d", s.n)})
}

func (s *sim) fail(tool string, input map[string]any, errText string) result {
	return s.hook("PostToolUseFailure", map[string]any{"tool_name": tool, "tool_input": input, "error": errText, "tool_use_id": fmt.Sprintf("t%d", s.n)})
}

func bash(cmd string) map[string]any { return map[string]any{"command": cmd} }

func (s *sim) write(name string) map[string]any {
	return map[string]any{"file_path": filepath.Join(s.project, name), "content": "x\n"}
}

func okBash() map[string]any {
	return map[string]any{"stdout": "ok", "stderr": "", "interrupted": false}
}

func (s *sim) wantDecision(r result, want, ctx string) {
	s.t.Helper()
	if got := r.decision(); got != want {
		s.t.Errorf("%s: decision %q, want %q (output %q)", ctx, got, want, r.text())
	}
}

func writeFileT(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
