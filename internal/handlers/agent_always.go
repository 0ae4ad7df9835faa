package handlers

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/task"
)

// alwaysForTask is the policy's ask for a task agent's call, looked at
// once more: a person approved the same kind of call always for this task
// (warden task approve ID --always), so it is allowed; otherwise the call
// is remembered as the one asked about, so that approving it always keeps
// its exact key (internal/task/allow.go). Only a task agent's PreToolUse
// ask pays for this: one keyed read, and one write when it still asks.
// Store errors leave the ask as it is.
func alwaysForTask(ctx context.Context, c *pipeline.Call, d event.Decision) event.Decision {
	if c.Event != event.PreToolUse || d.Verdict != event.Ask || c.Store == nil || c.Input == nil {
		return d
	}
	id := c.Getenv(event.TaskIDEnv)
	if id == "" {
		return d
	}
	key := task.CallKey(c.Input.ToolName, c.Input.ToolInput)
	if v, ok, err := c.Store.Setting(ctx, task.AllowedSetting(id)); err == nil && ok {
		if a := task.FindAllowance(v, key); a != nil {
			return event.Decision{Verdict: event.Allow, RuleID: "agent:always", Mode: string(event.Allow),
				Reason: fmt.Sprintf("a person approved this call always for task %s (%s asked: %s)", id, d.RuleID, d.Reason)}
		}
	}
	b, _ := json.Marshal(task.AskedCall{ToolUseID: c.Input.ToolUseID, Tool: c.Input.ToolName, Key: key})
	_ = c.Store.SetSetting(ctx, task.AskedSetting(id), string(b))
	return d
}
