package handlers

import (
	"context"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/gates"
	"github.com/warden-dev/warden/internal/pipeline"
)

// The research gate (gates.research, off by default): after a task prompt,
// mutations are denied until each required category of research saw a
// successful tool call. Only PostToolUse marks a category done, so a model
// saying "I researched" opens nothing.
func gatesResearchHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "research",
		Events: []event.Name{event.PreToolUse, event.PostToolUse},
		Run: func(ctx context.Context, c *pipeline.Call) (event.Decision, error) {
			cfg := c.Config.Gates
			if !cfg.Research {
				return event.Decision{}, nil
			}
			g := gates.Load(c.State)
			if c.Event == event.PostToolUse {
				if failed, _ := gates.FailureOf(c.Input); failed {
					return event.Decision{}, nil
				}
				if cat := gates.Category(c.Input.ToolName, cfg.DocsServers); cat != "" && !g.Research[cat] {
					if g.Research == nil {
						g.Research = map[string]bool{}
					}
					g.Research[cat] = true
					g.Save(c.State)
				}
				return event.Decision{}, nil
			}
			if g.Prompt != gates.Task && g.Prompt != gates.BigTask {
				return event.Decision{}, nil
			}
			if mut, _ := callChanges(ctx, c); !mut {
				return event.Decision{}, nil
			}
			home := c.Paths().UserHome()
			avail := gates.Availability{Servers: gates.FindServers(c.ProjectDir, c.Paths().ClaudeDir(), home)}
			missing := gates.MissingResearch(cfg.ResearchCategories, g.Research, avail, cfg.DocsServers)
			if len(missing) == 0 {
				return event.Decision{}, nil
			}
			return event.Decision{Verdict: event.Deny, RuleID: "gates:research", Mode: "deny",
				Reason: gates.ResearchDenyReason(missing)}, nil
		},
	}
}
