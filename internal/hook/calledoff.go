package hook

import (
	"context"
	"errors"
)

// calledOff says why ctx, the hook's context under the event's deadline,
// ended before that deadline: "" when it did not (it runs, or the deadline
// passed). In a resident server (internal/hookserve) a request's context
// ends early when its client goes away — Claude Code ended it, or it
// stopped waiting for a keeper stalled with the hook in hand — or the
// server stops hard. What the hook then says and records must name that,
// not a blown budget or another hook holding the session's lock: a keeper
// stalled 2 s that came back to a gone client said "handlers did not
// finish within the 54.6s budget".
func calledOff(ctx context.Context) string {
	if err := ctx.Err(); err == nil || errors.Is(err, context.DeadlineExceeded) {
		return ""
	}
	return context.Cause(ctx).Error()
}
