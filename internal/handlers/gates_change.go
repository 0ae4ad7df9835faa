package handlers

import (
	"context"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/gates"
	"github.com/warden-dev/warden/internal/pipeline"
)

// callChanges reports whether a tool call changes something, for the
// gates that stop changes (safemode, the breaker, the research and
// start-up gates): the call's facts show a write, a delete or a mutating
// command through any wrapper — or, when they show none, a built-in
// policy rule found a change the facts do not model as a path (a deploy,
// a database reset, a remount, a package run straight from a registry,
// a tunnel opened). Gates and the policy read a call one way: what the
// policy flags as a change, these gates stop. The policy runs here only
// when a gate is closed, so an everyday hook pays nothing for it.
func callChanges(ctx context.Context, c *pipeline.Call) (bool, string) {
	if mut, why := callMutation(c); mut {
		return true, why
	}
	if c.Event != event.PreToolUse || c.Input.ToolName == "" {
		return false, ""
	}
	ch := pipeline.Once(c, "policy-change", func() change {
		res, _ := evaluatePolicy(ctx, c)
		if h := res.ChangeHit(); h != nil {
			return change{true, h.ID + ": " + h.Reason}
		}
		return change{}
	})
	return ch.yes, ch.why
}

// change is whether a call changes something, and why.
type change struct {
	yes bool
	why string
}

// callMutation is gates.Mutation — the call's facts show a change —
// worked out once per call however many gates ask.
func callMutation(c *pipeline.Call) (bool, string) {
	ch := pipeline.Once(c, "mutation", func() change {
		yes, why := gates.Mutation(c.Input)
		return change{yes, why}
	})
	return ch.yes, ch.why
}
