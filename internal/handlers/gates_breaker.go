package handlers

import (
	"context"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/gates"
	"github.com/warden-dev/warden/internal/pipeline"
)

// The circuit breaker counts failed tool calls per project; once tripped,
// mutations are denied until the user resets it (rb-). State is in the
// store, so it survives restarts of Claude Code.
func gatesBreakerHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "breaker",
		Events: []event.Name{event.PreToolUse, event.PostToolUse, event.PostToolUseFailure},
		Run: func(ctx context.Context, c *pipeline.Call) (event.Decision, error) {
			if !c.Config.Gates.Breaker || c.Store == nil {
				return event.Decision{}, nil
			}
			b, err := gates.LoadBreaker(ctx, c.Store, c.ProjectDir)
			if err != nil {
				return event.Decision{}, err
			}
			if c.Event == event.PreToolUse {
				// Tripped first: parsing the command is the costly half.
				if !b.Tripped {
					return event.Decision{}, nil
				}
				if mut, _ := callChanges(ctx, c); mut {
					return event.Decision{Verdict: event.Deny, RuleID: "gates:breaker", Mode: "deny", Reason: b.DenyReason()}, nil
				}
				return event.Decision{}, nil
			}
			failed, msg := gates.FailureOf(c.Input)
			var d event.Decision
			if failed {
				f := gates.Failure{Time: c.Now, Tool: c.Input.ToolName, Message: msg,
					Signature: gates.Signature(c.Input.ToolName, msg)}
				if b.Failed(f, c.Config.Gates.BreakerThreshold) {
					d = event.Decision{Verdict: event.Warn, RuleID: "gates:breaker", Mode: "warn", Reason: b.DenyReason()}
				}
			} else if b.Consecutive == 0 {
				return event.Decision{}, nil // nothing to save
			} else {
				b.Succeeded()
			}
			return d, gates.SaveBreaker(ctx, c.Store, c.ProjectDir, b)
		},
	}
}
