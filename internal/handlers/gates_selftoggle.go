package handlers

import (
	"context"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/gates"
	"github.com/warden-dev/warden/internal/pipeline"
)

// Only the user toggles warden's guards: a tool call that runs `warden off`,
// `warden safemode off` or `warden breaker reset` is denied, so the model
// cannot reset the breaker it tripped.
func gatesSelftoggleHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "self-toggle",
		Events: []event.Name{event.PreToolUse},
		Run: func(_ context.Context, c *pipeline.Call) (event.Decision, error) {
			if c.Input.ToolName != "Bash" && c.Input.ToolName != "PowerShell" {
				return event.Decision{}, nil
			}
			what, ok := gates.SelfToggle(c.Input.ToolString("command"))
			if !ok {
				return event.Decision{}, nil
			}
			return event.Decision{Verdict: event.Deny, RuleID: "gates:self-toggle", Mode: "deny",
				Reason: "`" + what + "` is for the user only; ask the user to type it in the prompt if it is really needed."}, nil
		},
	}
}
