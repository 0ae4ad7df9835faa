package handlers

import (
	"context"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/store"
)

// Tampering warden detected (a session state whose signature failed) is
// shown to the user at the next SessionStart, then cleared. Always on: it
// reports on warden itself.
func tampernoticeHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:     "tampernotice",
		Events:   []event.Name{event.SessionStart},
		AlwaysOn: true,
		Run: func(ctx context.Context, c *pipeline.Call) (event.Decision, error) {
			if c.Store == nil {
				return event.Decision{}, nil
			}
			what, ok, err := c.Store.Setting(ctx, store.SettingTamper)
			if err != nil || !ok || what == "" {
				return event.Decision{}, err
			}
			if err := c.Store.SetSetting(ctx, store.SettingTamper, ""); err != nil {
				return event.Decision{}, err
			}
			return event.Decision{SystemMessage: "warden: tampering detected — " + what +
				". Check `warden log` and `warden audit verify`."}, nil
		},
	}
}
