package handlers

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/reqenv"
	"github.com/warden-dev/warden/internal/session"
)

// TestCachedEngineSeesRuleFileChanges: the resident server keeps built
// policy engines, so a rule file created, edited or removed between two
// hooks must show on the next one.
func TestCachedEngineSeesRuleFileChanges(t *testing.T) {
	c := policyCall(t, event.PreToolUse, &session.State{}, "Bash", map[string]any{"command": "psql -h prod.db.internal -c 'select 1'"})
	decide := func() event.Verdict {
		d, err := runPolicy(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		return d.Verdict
	}
	if v := decide(); v != "" && v != event.Allow {
		t.Fatalf("no rule file yet: %q", v)
	}
	dir := filepath.Join(c.ProjectDir, ".warden", "rules")
	os.MkdirAll(dir, 0o755)
	file := filepath.Join(dir, "team.toml")
	rule := func(mode string) {
		body := "[[rule]]\nid = \"team.db:prod-psql\"\ndescription = \"prod psql\"\nmode = \"" + mode + "\"\ncommands = [\"psql\"]\nargs_regex = \"prod\\\\.db\\\\.internal\"\n"
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rule("ask")
	if v := decide(); v != event.Ask {
		t.Fatalf("after the rule file appeared: %q", v)
	}
	rule("deny")
	// Same size; a file system with coarse times could give the same
	// modification time: set it apart explicitly.
	os.Chtimes(file, time.Now(), time.Now().Add(2*time.Second))
	if v := decide(); v != event.Deny {
		t.Fatalf("after the rule file was edited: %q", v)
	}
	os.Remove(file)
	if v := decide(); v != "" && v != event.Allow {
		t.Fatalf("after the rule file was removed: %q", v)
	}
}

// TestCachedEngineUsesEachCallersEnvironment: one cached engine serves
// callers whose CLAUDE_CONFIG_DIR differ; each call is judged by its own.
func TestCachedEngineUsesEachCallersEnvironment(t *testing.T) {
	custom := filepath.Join(t.TempDir(), "claude-config")
	settings := filepath.Join(custom, "settings.json")
	c := policyCall(t, event.PreToolUse, &session.State{}, "Bash", map[string]any{"command": "echo '{}' > " + settings})
	home := t.TempDir() // the same for both: one engine (one cache key) serves them
	plain := &reqenv.Env{Environ: []string{"HOME=" + home}, Cwd: c.ProjectDir}
	mine := &reqenv.Env{Environ: []string{"HOME=" + home, "CLAUDE_CONFIG_DIR=" + custom}, Cwd: c.ProjectDir}
	for i := 0; i < 2; i++ { // the second round is served from the cache
		c.Env = plain
		if d, _ := runPolicy(context.Background(), c); d.Verdict == event.Deny && d.RuleID == "core.self:settings-hooks" {
			t.Fatalf("round %d: a caller without CLAUDE_CONFIG_DIR was judged by another's: %+v", i, d)
		}
		c.Env = mine
		if d, _ := runPolicy(context.Background(), c); d.Verdict != event.Deny || d.RuleID != "core.self:settings-hooks" {
			t.Fatalf("round %d: writing the caller's own CLAUDE_CONFIG_DIR settings: %+v", i, d)
		}
	}
}
