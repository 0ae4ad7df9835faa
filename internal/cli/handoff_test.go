package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHandoffWriteCheck(t *testing.T) {
	proj := t.TempDir()
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	out, errs, code := runCLI(t, "handoff", "check", "--project", proj)
	if code != 0 || !strings.Contains(out, "no handoffs") {
		t.Fatalf("empty: %d %q %q", code, out, errs)
	}
	out, errs, code = runCLI(t, "handoff", "write", "--project", proj, "--from", "builder", "--to", "reviewer",
		"--task", "T1", "--status", "complete", "--files", "a.go,b.go", "--question", "q1, with comma", "--findings", "done")
	if code != 0 || !strings.HasPrefix(filepath.Base(strings.TrimSpace(out)), "agent-t1-") {
		t.Fatalf("write: %d %q %q", code, out, errs)
	}
	b, _ := os.ReadFile(strings.TrimSpace(out))
	if !strings.Contains(string(b), `"files_modified": [`+"\n"+`    "a.go",`) || !strings.Contains(string(b), `"q1, with comma"`) {
		t.Errorf("handoff:\n%s", b)
	}
	if _, _, code := runCLI(t, "handoff", "write", "--project", proj, "--from", "a", "--to", "b", "--task", "t", "--status", "done"); code == 0 {
		t.Error("bad status accepted")
	}
	if _, _, code := runCLI(t, "handoff", "write", "--project", proj, "--from", "a", "--status", "partial"); code == 0 {
		t.Error("missing required flags accepted")
	}
	// A blocked one comes after: exit 3.
	// (same second as the first is fine: a -2 suffix keeps both, newest first)
	_, _, code = runCLI(t, "handoff", "write", "--project", proj, "--from", "reviewer", "--to", "builder",
		"--task", "T1", "--status", "blocked", "--question", "which API?", "--blocking")
	if code != 0 {
		t.Fatal("write blocked")
	}
	// An invalid one, older than both.
	os.WriteFile(filepath.Join(proj, ".warden", "handoffs", "agent-old-20200101-000000.md"), []byte("## Signal\n```json\n{oops\n```\n"), 0o644)
	out, _, code = runCLI(t, "handoff", "check", "--project", proj)
	if code != 3 || !strings.Contains(out, "BLOCKED") || !strings.Contains(out, "INVALID") {
		t.Errorf("check: %d\n%s", code, out)
	}
	out, _, code = runCLI(t, "handoff", "check", "--project", proj, "--json")
	var res struct {
		Handoffs []struct {
			Kind    string `json:"kind"`
			Valid   bool   `json:"valid"`
			Problem string `json:"problem"`
			Signal  *struct {
				Status string `json:"status"`
			} `json:"signal"`
		} `json:"handoffs"`
		Blocked *struct{ Path string } `json:"blocked"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 3 {
		t.Fatalf("json: %v %d %s", err, code, out)
	}
	if len(res.Handoffs) != 3 || res.Handoffs[0].Signal == nil || res.Handoffs[0].Signal.Status != "blocked" ||
		res.Handoffs[2].Valid || res.Blocked == nil {
		t.Errorf("json result %s", out)
	}
	// A newer session handoff: no longer blocked.
	os.WriteFile(filepath.Join(proj, ".warden", "handoffs", "handoff-29991231-000000.md"), []byte("x"), 0o644)
	if _, _, code = runCLI(t, "handoff", "check", "--project", proj); code != 0 {
		t.Errorf("after a newer session handoff: exit %d", code)
	}
}

func TestHandoffAuto(t *testing.T) {
	proj := t.TempDir()
	out, errs, code := runCLI(t, "handoff", "auto", "--project", proj, "--session", "s9", "--percent", "71",
		"--transcript", filepath.Join(proj, "missing.jsonl"))
	if code != 0 {
		t.Fatalf("%d %q", code, errs)
	}
	if !strings.HasPrefix(filepath.Base(strings.TrimSpace(out)), "handoff-") {
		t.Errorf("path %q", out)
	}
	if _, err := os.Stat(filepath.Join(proj, ".warden", "state", "pending-resume.json")); err != nil {
		t.Error("not registered for the next SessionStart")
	}
}

func TestInitCommand(t *testing.T) {
	proj := t.TempDir()
	os.WriteFile(filepath.Join(proj, ".gitignore"), []byte("bin/"), 0o644)
	out, errs, code := runCLI(t, "init", "--project", proj)
	if code != 0 || !strings.Contains(out, "wrote:") || !strings.Contains(out, "added .warden/ to .gitignore") {
		t.Fatalf("%d %q %q", code, out, errs)
	}
	b, _ := os.ReadFile(filepath.Join(proj, ".gitignore"))
	if !strings.HasPrefix(string(b), "bin/\n") || !strings.HasSuffix(string(b), ".warden/\n") {
		t.Errorf(".gitignore %q", b)
	}
	os.WriteFile(filepath.Join(proj, ".claude", "commands", "learn.md"), []byte("mine"), 0o644)
	out, _, _ = runCLI(t, "init", "--project", proj)
	if !strings.Contains(out, "kept (yours; --force to overwrite): .claude/commands/learn.md") {
		t.Errorf("no --force: %s", out)
	}
	if b, _ := os.ReadFile(filepath.Join(proj, ".claude", "commands", "learn.md")); string(b) != "mine" {
		t.Error("overwritten without --force")
	}
	out, _, _ = runCLI(t, "init", "--project", proj, "--force")
	if !strings.Contains(out, "overwrote: .claude/commands/learn.md") {
		t.Errorf("--force: %s", out)
	}
}
