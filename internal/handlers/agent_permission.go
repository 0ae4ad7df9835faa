package handlers

import (
	"context"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/pipeline"
)

// warden is the permission system of its task agents. Nobody sits at an
// agent's tmux window to answer Claude Code's permission dialogs, and its
// default mode (auto) checks calls on the model provider's server, which
// cannot run offline or through a gateway and then stops at a dialog too.
// So for an agent (WARDEN_TASK_ID set) every PreToolUse is answered out
// loud: allow when no handler denies or asks (the policy, gates, judges
// decided), deny with the reason, ask only when a rule says ask — which
// shows Claude Code's dialog and puts the task in waiting with the call
// recorded (internal/agent). A person's own sessions are left to Claude
// Code's permissions as before. With `warden off` this handler is off too
// and agents fall back to Claude Code's own permissions.
func agentPermissionHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "agent-permission",
		Events: []event.Name{event.PreToolUse},
		Run: func(_ context.Context, c *pipeline.Call) (event.Decision, error) {
			if c.Getenv(event.TaskIDEnv) == "" {
				return event.Decision{}, nil
			}
			return event.Decision{Explicit: true}, nil
		},
	}
}
