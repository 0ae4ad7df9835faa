package handlers

import (
	"context"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/gates"
	"github.com/warden-dev/warden/internal/pipeline"
)

// Verification tracking: successful mutations count as edits, a successful
// test run clears them. With gates.verify_before_stop, a Stop with edits
// after the last test run is blocked once, with an instruction to test; a
// Stop that is already a continuation (stop_hook_active) is never blocked.
func gatesVerifyHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "verify",
		Events: []event.Name{event.PostToolUse, event.Stop},
		Run: func(_ context.Context, c *pipeline.Call) (event.Decision, error) {
			g := gates.Load(c.State)
			if c.Event == event.PostToolUse {
				if failed, _ := gates.FailureOf(c.Input); failed {
					return event.Decision{}, nil
				}
				if c.Input.ToolName == "Bash" && gates.TestRun(c.Input.ToolString("command"), c.Config.Gates.TestCommands) {
					g.Tested()
				} else if mut, why := callMutation(c); mut {
					g.Edited(why)
				} else {
					return event.Decision{}, nil
				}
				g.Save(c.State)
				return event.Decision{}, nil
			}
			if !c.Config.Gates.VerifyBeforeStop || g.Edits == 0 || g.StopBlocked || c.Input.StopHookActive {
				return event.Decision{}, nil
			}
			g.StopBlocked = true
			g.Save(c.State)
			return event.Decision{Verdict: event.Deny, RuleID: "gates:verify-before-stop", Mode: "deny",
				Reason: gates.VerifyStopReason(g)}, nil
		},
	}
}
