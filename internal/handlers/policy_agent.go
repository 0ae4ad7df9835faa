package handlers

import (
	"encoding/json"

	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/policy"
)

// agentPacks is the agent pack when the hook runs for one of warden's
// agents (WARDEN_TASK_ID set), nothing otherwise; the task's allowed and
// denied operations come from its .warden/task.json (findAgentTask).
//
// key names the pack's inputs, for the engine cache ("" without one).
func agentPacks(c *pipeline.Call) (packs []policy.Pack, key string) {
	id, tf := findAgentTask(c)
	if id == "" {
		return nil, ""
	}
	task := policy.AgentTask{ID: id, Worktree: c.ProjectDir}
	if tf != nil {
		task.Worktree, task.Branch, task.Allow, task.Deny = tf.Dir, tf.Branch, tf.Allow, tf.Deny
	}
	k, _ := json.Marshal(task)
	return []policy.Pack{policy.AgentPack(task)}, string(k)
}
