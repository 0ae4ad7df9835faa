package handlers

import (
	"context"
	"fmt"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/gates"
	"github.com/warden-dev/warden/internal/pipeline"
)

// The startup gate (gates.startup_steps, empty by default): configured
// steps — read a file, run a command — must be done in a session before its
// first mutation. SessionStart tells Claude the steps.
func gatesStartupHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "startup",
		Events: []event.Name{event.SessionStart, event.PreToolUse, event.PostToolUse},
		Run: func(ctx context.Context, c *pipeline.Call) (event.Decision, error) {
			if len(c.Config.Gates.StartupSteps) == 0 {
				return event.Decision{}, nil
			}
			steps, err := gates.ParseSteps(c.Config.Gates.StartupSteps, c.ProjectDir)
			g := gates.Load(c.State)
			missing := gates.MissingSteps(steps, g.Startup)
			switch c.Event {
			case event.SessionStart:
				if len(missing) == 0 {
					return event.Decision{}, err
				}
				return event.Decision{Context: "warden startup gate: before changing anything in this session, do these steps:" +
					gates.StepsText(missing)}, err
			case event.PostToolUse:
				if failed, _ := gates.FailureOf(c.Input); failed {
					return event.Decision{}, err
				}
				for _, s := range missing {
					if s.Done(c.Input) {
						if g.Startup == nil {
							g.Startup = map[string]bool{}
						}
						g.Startup[s.Raw] = true
					}
				}
				g.Save(c.State)
				return event.Decision{}, err
			}
			if len(missing) == 0 {
				return event.Decision{}, err
			}
			if mut, _ := callChanges(ctx, c); !mut {
				return event.Decision{}, err
			}
			return event.Decision{Verdict: event.Deny, RuleID: "gates:startup", Mode: "deny",
				Reason: fmt.Sprintf("startup steps first: %d of %d not done yet:%s", len(missing), len(steps), gates.StepsText(missing))}, err
		},
	}
}
