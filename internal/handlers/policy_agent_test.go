package handlers

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/session"
)

// The agent pack applies only to warden's agents, reads what the task
// allows from its .warden/task.json, and finds it from a subdirectory.
func TestPolicyAgentPackOnlyForAgents(t *testing.T) {
	bash := func(cmd string, sub string) event.Decision {
		c := policyCall(t, event.PreToolUse, &session.State{}, "Bash", map[string]any{"command": cmd})
		os.MkdirAll(filepath.Join(c.ProjectDir, ".warden"), 0o755)
		os.WriteFile(filepath.Join(c.ProjectDir, ".warden", "task.json"),
			[]byte(`{"id":"t1","branch":"warden/t1","allow":["push"]}`), 0o644)
		if sub != "" {
			c.ProjectDir = filepath.Join(c.ProjectDir, sub)
			os.MkdirAll(c.ProjectDir, 0o755)
		}
		d, err := runPolicy(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if d := bash("git merge main", ""); d.Verdict == event.Deny {
		t.Errorf("outside an agent: %+v", d)
	}
	t.Setenv("WARDEN_TASK_ID", "t1")
	if d := bash("git merge main", ""); d.Verdict != event.Deny || d.RuleID != "core.agent:git-merge" {
		t.Errorf("agent merge: %+v", d)
	}
	if d := bash("git push origin warden/t1", "pkg/sub"); d.Verdict == event.Deny {
		t.Errorf("push the task allows: %+v", d)
	}
	// Enough ../ to climb from the subdirectory to /, wherever the temp
	// directory holding the worktree is (TMPDIR unset, or deep): the
	// target is /srv/outside.txt, never inside the temporary directory the
	// pack lets agents write.
	up := strings.Repeat("../", strings.Count(t.TempDir(), string(filepath.Separator))+4)
	if d := bash("echo x > "+up+"srv/outside.txt", "pkg/sub"); d.Verdict != event.Deny || d.RuleID != "core.agent:write-outside" {
		t.Errorf("write outside the worktree from a subdirectory: %+v", d)
	}
	if d := bash("echo x > inside.txt", "pkg/sub"); d.Verdict == event.Deny {
		t.Errorf("write inside: %+v", d)
	}
}
