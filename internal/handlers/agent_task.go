package handlers

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/pipeline"
)

// agentTask is what a warden agent's hooks read of its task from the
// worktree's .warden/task.json (internal/agent writes it): the operations
// the agent pack enforces and the criteria the completion judge is told.
type agentTask struct {
	ID         string   `json:"id"`
	Branch     string   `json:"branch"`
	Allow      []string `json:"allow"`
	Deny       []string `json:"deny"`
	Criteria   []string `json:"criteria"`
	BaseCommit string   `json:"base_commit"`
	Dir        string   `json:"-"` // the worktree
}

// findAgentTask returns the task of the agent making the call, nil
// outside warden's agents (no WARDEN_TASK_ID). The worktree is the
// directory holding the task's .warden/task.json, looked for from the
// project directory upwards (an agent may cd into a subdirectory); a
// task.json of another task does not count.
func findAgentTask(c *pipeline.Call) (id string, t *agentTask) {
	id = c.Getenv(event.TaskIDEnv)
	if id == "" {
		return "", nil
	}
	for dir := c.ProjectDir; dir != "" && dir != "/" && dir != "."; dir = filepath.Dir(dir) {
		b, err := os.ReadFile(filepath.Join(dir, ".warden", "task.json"))
		if err != nil {
			continue
		}
		var tf agentTask
		if json.Unmarshal(b, &tf) == nil && tf.ID == id {
			tf.Dir = dir
			return id, &tf
		}
	}
	return id, nil
}

// judgeCriteria is the task's criteria that only a judge can check (not
// committed, clean or run:CMD, which warden checks itself when the agent
// stops), as a line for the completion judge; "" when there are none.
func (t *agentTask) judgeCriteria() string {
	var prose []string
	for _, c := range t.Criteria {
		c = strings.TrimSpace(c)
		if c == "" || c == "committed" || c == "clean" || strings.HasPrefix(c, "run:") {
			continue
		}
		prose = append(prose, "- "+c)
	}
	if len(prose) == 0 {
		return ""
	}
	return "(warden task " + t.ID + ") The task is done only when all of these hold:\n" + strings.Join(prose, "\n")
}
