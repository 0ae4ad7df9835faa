//go:build linux

package daemon_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/task"
)

// memoryAgent grows past the limit after its first hook; the address
// space cap keeps a machine where the limit failed safe (the string
// reaches 128M, the agent exits, and the test fails).
const memoryAgent = `#!/bin/sh
printf '{"session_id":"m-%s","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"make big"}}' "$WARDEN_TASK_ID" "$PWD" |
  "$WARDEN_BIN" hook --harness claude >/dev/null 2>&1
ulimit -v 786432
exec awk 'BEGIN { s = "x"; while (length(s) < 134217728) s = s s; print length(s) }'
`

// A task whose agent goes over agent.memory_max fails, and its error
// names the limit.
func TestTaskOverTheMemoryLimitFails(t *testing.T) {
	if ok, why := agent.MemoryLimit(); !ok {
		// internal/agent's memory tests tell an absent kernel facility
		// (skip) from an unusable one (fail in CI).
		t.Skip(why)
	}
	h, project, _ := tmuxDaemon(t, memoryAgent, "memory_max = \"64M\"\n")
	out, code := h.warden("task", "add", "--json", "-C", project, "grow")
	var tk task.Task
	if code != 0 || json.Unmarshal([]byte(out), &tk) != nil {
		t.Fatalf("task add: exit %d: %s", code, out)
	}
	h.waitFor("the task to end", func() bool { return h.tasks()[tk.ID].Status.Final() })
	got := h.tasks()[tk.ID]
	if got.Status != task.Failed || !strings.Contains(got.Error, "memory limit (agent.memory_max 64M)") {
		t.Errorf("task %s: %s %q, want failed naming the memory limit", tk.ID, got.Status, got.Error)
	}
	if show, _ := h.warden("task", "show", tk.ID); !strings.Contains(show, "killed by the memory limit") {
		t.Errorf("task show:\n%s", show)
	}
}
