package agent

import (
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/testenv"
)

// A command agent (no Claude Code, no Stop hook) that commits and exits 0
// is done when the task's criteria hold; one that exits 0 without meeting
// them is an error naming what is missing.
func TestCommandAgentDoneByCriteria(t *testing.T) {
	r := newRig(t, "", func(c *Config) {
		c.Mode = ModeCommand
		c.Command = []string{"sh", "-c", "cat {prompt_file} > note.txt && git add note.txt && git -c user.email=a@b -c user.name=agent commit -qm 'add note' && echo committed"}
	})
	r.spawn(t, "t1", "committed", "clean")
	s, _ := r.untilCleaned(t, "t1", 30*time.Second)
	if s.State != "done" || !strings.Contains(s.Reason, "exited 0 with its criteria met") {
		t.Fatalf("command agent %s: %s (history %+v)", s.State, s.Reason, s.History)
	}
	if msg := testenv.Git(t, r.project, "log", "-1", "--format=%s", "warden/t1"); strings.TrimSpace(msg) != "add note" {
		t.Errorf("branch tip %q", msg)
	}

	r2 := newRig(t, "", func(c *Config) {
		c.Mode = ModeCommand
		c.Command = []string{"sh", "-c", "echo looked around"}
	})
	r2.spawn(t, "t2", "committed")
	s, _ = r2.untilCleaned(t, "t2", 30*time.Second)
	if s.State != "error" || !strings.Contains(s.Reason, "exited 0 with criteria not met: committed") {
		t.Fatalf("command agent without a commit %s: %s", s.State, s.Reason)
	}
}
