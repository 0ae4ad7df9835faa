package install

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFixBrokenRemovesOnlyMissingPrograms(t *testing.T) {
	e := newEnv(t)
	good := filepath.Join(e.home, "good-hook.sh")
	writeFile(t, good, "#!/bin/sh\nexit 0\n")
	os.Chmod(good, 0o755)
	writeFile(t, e.userSettings(), `{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [
        {"type": "command", "command": "`+good+`"},
        {"type": "command", "command": "/nonexistent/guard.sh --strict"}
      ]}
    ],
    "Stop": [
      {"hooks": [{"type": "command", "command": "/typo/path/stop-check"}]}
    ],
    "SessionStart": [
      {"hooks": [{"type": "command", "command": "$CLAUDE_PLUGIN_ROOT/maybe.sh"}]}
    ]
  }
}
`)
	o := e.opts()
	o.Yes = true
	n, err := FixBroken(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Fatalf("fixed %d, want 2\n%s", n, e.out)
	}
	b, _ := os.ReadFile(e.userSettings())
	got := string(b)
	for _, gone := range []string{"/nonexistent/guard.sh", "/typo/path/stop-check", `"Stop"`} {
		if strings.Contains(got, gone) {
			t.Errorf("%s still there:\n%s", gone, got)
		}
	}
	for _, kept := range []string{good, "$CLAUDE_PLUGIN_ROOT/maybe.sh", `"model": "opus"`, `"matcher": "Bash"`} {
		if !strings.Contains(got, kept) {
			t.Errorf("%s removed:\n%s", kept, got)
		}
	}
	backups, _ := filepath.Glob(e.userSettings() + ".warden-backup-*")
	if len(backups) != 1 {
		t.Errorf("want one backup, got %v", backups)
	}
	// Nothing left to fix: a second run changes nothing.
	if n, err := FixBroken(context.Background(), o); err != nil || n != 0 {
		t.Errorf("second run fixed %d (%v)", n, err)
	}
}

func TestFixBrokenDryRunChangesNothing(t *testing.T) {
	e := newEnv(t)
	orig := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"/nope/x"}]}]}}`
	writeFile(t, e.userSettings(), orig)
	o := e.opts()
	o.DryRun = true
	if _, err := FixBroken(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(e.userSettings()); string(b) != orig {
		t.Errorf("dry run changed the file:\n%s", b)
	}
	if !strings.Contains(e.out.String(), "/nope/x") || !strings.Contains(e.out.String(), "dry run") {
		t.Errorf("dry run output:\n%s", e.out)
	}
}
