package handlers

import (
	"context"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/gates"
	"github.com/warden-dev/warden/internal/pipeline"
)

// Safemode (s+ / warden safemode on) denies every mutation until the user
// turns it off (s-).
func gatesSafemodeHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "safemode",
		Events: []event.Name{event.PreToolUse},
		Run: func(ctx context.Context, c *pipeline.Call) (event.Decision, error) {
			if c.Store == nil || !gates.Safemode(ctx, c.Store) {
				return event.Decision{}, nil
			}
			mut, why := callChanges(ctx, c)
			if !mut {
				return event.Decision{}, nil
			}
			return event.Decision{Verdict: event.Deny, RuleID: "gates:safemode", Mode: "deny",
				Reason: "safemode is on: no changes (" + why + ") until the user types `s-`. Reading and running tests still work."}, nil
		},
	}
}
