package handlers

import (
	"context"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/pipeline"
)

// Session counters other handlers build on: the tool-call count (pacing's
// subagent reminder, strict-vs-lazy judging) and the subagent depth (is this
// call in the main context?). Always on: they are bookkeeping, not guards.
func init() {
	pipeline.Register(pipeline.Handler{
		Name:     "counters",
		Events:   []event.Name{event.PreToolUse, event.SubagentStart, event.SubagentStop},
		AlwaysOn: true,
		Run: func(_ context.Context, c *pipeline.Call) (event.Decision, error) {
			switch c.Event {
			case event.PreToolUse:
				c.State.ToolCount++
			case event.SubagentStart:
				c.State.SubagentDepth++
			case event.SubagentStop:
				if c.State.SubagentDepth > 0 {
					c.State.SubagentDepth--
				}
			}
			return event.Decision{}, nil
		},
	})
}
