package handlers

import (
	"context"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/lifecycle"
	"github.com/warden-dev/warden/internal/pipeline"
)

// SessionStart adds one briefing as additionalContext: the last session's
// end, branch and uncommitted count; after a compaction, the state captured
// before it; a learn-pending notice (then cleared); the pending handoff
// (injected once, then cleared). It also clears the session's
// context-threshold mark, so the threshold can fire again after a
// compaction. Nothing applies: nothing is added.
func lifecycleStartHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "lifecycle-briefing",
		Events: []event.Name{event.SessionStart},
		Run: func(ctx context.Context, c *pipeline.Call) (event.Decision, error) {
			_ = lifecycle.ClearThreshold(ctx, c.Store, c.Input.SessionID)
			if c.ProjectDir == "" || c.Input.AgentID != "" {
				return event.Decision{}, nil
			}
			if c.Config == nil {
				return event.Decision{}, nil
			}
			b := c.Config.Briefing
			text := lifecycle.Briefing(c.ProjectDir, lifecycle.BriefingOptions{
				LastSession: b.LastSession, Learn: b.Learn, Handoff: b.Handoff, PreCompact: b.PreCompact,
				SessionID: c.Input.SessionID, Source: c.Input.Source, Now: c.Now,
			})
			if text == "" {
				return event.Decision{}, nil
			}
			return event.Decision{Context: text}, nil
		},
	}
}
