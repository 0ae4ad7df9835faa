package handlers

import (
	"context"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/usercmd"
)

// A prompt that is a warden command ("warden status") is answered to the
// user and never reaches the model. It runs even when warden is off, so
// `warden on` can be typed.
func usercmdHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:     "usercmd",
		Events:   []event.Name{event.UserPromptSubmit},
		AlwaysOn: true,
		Run: func(ctx context.Context, c *pipeline.Call) (event.Decision, error) {
			cmd, args, ok := usercmd.Parse(c.Input.Prompt)
			if !ok {
				return event.Decision{}, nil
			}
			env := &usercmd.Env{
				Store: c.Store, StorePath: c.Paths().DB(), SessionID: c.Input.SessionID,
				State: c.State, ConfigProblems: c.ConfigProblems, Config: c.Config, ProjectDir: c.ProjectDir,
			}
			reply := usercmd.Run(ctx, cmd, env, args)
			return event.Decision{
				Verdict: event.Deny, RuleID: "usercmd:" + cmd.Name, Mode: "deny",
				Reason: "answered warden command", UserReply: reply,
			}, nil
		},
	}
}
