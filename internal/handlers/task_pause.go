package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/task"
)

// Task pause (SPEC.md §8): while the daemon's scheduler holds work because
// a quota window is critical, an agent it started (WARDEN_TASK_ID in its
// environment) waits after each tool call — the pacing path: a sleep
// bounded by the event's budget, and additionalContext saying why — until
// the hold ends. Sessions that are not the daemon's tasks are untouched
// (pacing handles them). One setting read per PostToolUse of an agent.
func taskPauseHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "task-pause",
		Events: []event.Name{event.PostToolUse},
		Run:    runTaskPause,
	}
}

// taskPauseMax bounds one wait: the agent comes back between waits, so a
// cancelled task or a lifted hold is noticed within this.
const taskPauseMax = 5 * time.Minute

func runTaskPause(ctx context.Context, c *pipeline.Call) (event.Decision, error) {
	id := c.Getenv(task.EnvTaskID)
	if id == "" || c.Store == nil {
		return event.Decision{}, nil
	}
	v, ok, err := c.Store.Setting(ctx, task.HoldSetting)
	if err != nil || !ok || v == "" {
		return event.Decision{}, err
	}
	var h task.Hold
	if err := json.Unmarshal([]byte(v), &h); err != nil {
		return event.Decision{}, fmt.Errorf("hold setting: %w", err)
	}
	wait := min(h.Until.Sub(c.Now), taskPauseMax)
	if dl, ok := ctx.Deadline(); ok {
		wait = min(wait, time.Until(dl)-time.Second)
	}
	if wait <= 0 {
		return event.Decision{}, nil
	}
	return event.Decision{
		Sleep: wait,
		Context: fmt.Sprintf("warden daemon: task %s is paused because the account's quota is critical (%s). "+
			"Waited %d s after this tool call; the hold lasts until %s. Finish the step you are on, then keep tool calls few; do not start large new work.",
			id, h.Reason, int(wait.Round(time.Second).Seconds()), h.Until.UTC().Format(time.RFC3339)),
	}, nil
}
