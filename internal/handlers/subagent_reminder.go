package handlers

import (
	"context"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/pipeline"
)

const keyMainCalls = "main_tool_calls"

// PostToolUse in the main context (no agent_id, no subagent running)
// counts tool calls; every reminders.subagent_every calls it adds the
// reminder text as additionalContext. Subagents' tool calls neither count
// nor get the reminder.
func subagentReminderHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "subagent-reminder",
		Events: []event.Name{event.PostToolUse},
		Run: func(_ context.Context, c *pipeline.Call) (event.Decision, error) {
			if c.Config == nil || c.Input.AgentID != "" || c.State.SubagentDepth > 0 {
				return event.Decision{}, nil
			}
			var n int
			c.State.Get(keyMainCalls, &n)
			n++
			if err := c.State.Put(keyMainCalls, n); err != nil {
				return event.Decision{}, err
			}
			every := c.Config.Reminders.SubagentEvery
			if every <= 0 || n%every != 0 || c.Config.Reminders.SubagentText == "" {
				return event.Decision{}, nil
			}
			return event.Decision{Context: c.Config.Reminders.SubagentText}, nil
		},
	}
}
