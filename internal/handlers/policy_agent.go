package handlers

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/policy"
)

// agentPacks is the agent pack when the hook runs for one of warden's
// agents (WARDEN_TASK_ID set), nothing otherwise. The worktree is the
// directory holding the task's .warden/task.json, looked for from the
// project directory upwards (an agent may cd into a subdirectory); the
// task's allowed and denied operations come from the same file.
func agentPacks(c *pipeline.Call) []policy.Pack {
	id := c.Getenv(event.TaskIDEnv)
	if id == "" {
		return nil
	}
	task := policy.AgentTask{ID: id, Worktree: c.ProjectDir}
	for dir := c.ProjectDir; dir != "" && dir != "/" && dir != "."; dir = filepath.Dir(dir) {
		b, err := os.ReadFile(filepath.Join(dir, ".warden", "task.json"))
		if err != nil {
			continue
		}
		var tf struct {
			ID     string   `json:"id"`
			Branch string   `json:"branch"`
			Allow  []string `json:"allow"`
			Deny   []string `json:"deny"`
		}
		if json.Unmarshal(b, &tf) == nil && tf.ID == id {
			task.Worktree, task.Branch, task.Allow, task.Deny = dir, tf.Branch, tf.Allow, tf.Deny
			break
		}
	}
	return []policy.Pack{policy.AgentPack(task)}
}
