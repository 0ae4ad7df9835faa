package handlers

import (
	"context"
	"fmt"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/pipeline"
)

const flagConfigWarned = "config_warned"

// A broken config makes hooks fall back to defaults; the user hears about it
// once per session, at SessionStart, with the first problem and the command
// that lists them all.
func confignoticeHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:     "confignotice",
		Events:   []event.Name{event.SessionStart},
		AlwaysOn: true,
		Run: func(_ context.Context, c *pipeline.Call) (event.Decision, error) {
			if len(c.ConfigProblems) == 0 || c.State.Flag(flagConfigWarned) {
				return event.Decision{}, nil
			}
			c.State.SetFlag(flagConfigWarned, true)
			more := ""
			if n := len(c.ConfigProblems); n > 1 {
				more = fmt.Sprintf(" (and %d more)", n-1)
			}
			return event.Decision{SystemMessage: fmt.Sprintf(
				"warden: config problem, using defaults where broken: %s%s. Run `warden config check`.",
				c.ConfigProblems[0].String(), more)}, nil
		},
	}
}
