package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/task"
)

// A task with rules of its own is not run headless, where nothing would
// enforce them: it fails with the fix, and its agent is never started.
func TestHeadlessRefusesTaskRules(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "started")
	agent := filepath.Join(dir, "claude")
	os.WriteFile(agent, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755)
	h := &Headless{Command: agent, Dir: filepath.Join(dir, "out")}
	for _, tk := range []*task.Task{
		{ID: "t1", Project: dir, Prompt: "x", Criteria: []string{"run:true"}},
		{ID: "t2", Project: dir, Prompt: "x", Deny: []string{"network"}},
	} {
		run, err := h.Start(context.Background(), tk)
		if err == nil || run != nil || !strings.Contains(err.Error(), "only the tmux runner enforces") {
			t.Errorf("%s: run %v, err %v", tk.ID, run, err)
		}
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Errorf("the agent was started: %v", err)
	}
}
