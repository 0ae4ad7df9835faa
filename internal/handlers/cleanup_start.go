package handlers

import (
	"context"
	"strings"

	"github.com/warden-dev/warden/internal/cleanup"
	"github.com/warden-dev/warden/internal/detach"
	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/pipeline"
)

// With cleanup.on_start, every SessionStart starts `warden cleanup --kill`
// detached (its own 20 s deadline; the hook never waits) for orphaned
// Claude Code, MCP-server and subagent processes at least 2 minutes old,
// and tells the user once what the previous run ended.
func cleanupStartHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "cleanup",
		Events: []event.Name{event.SessionStart},
		Run: func(ctx context.Context, c *pipeline.Call) (event.Decision, error) {
			if !c.Config.Cleanup.OnStart || judge.Nested(c.Getenv) {
				return event.Decision{}, nil
			}
			var d event.Decision
			if last := setting(ctx, c, cleanup.SettingLast); last != "" && !strings.Contains(last, " 0 ended") {
				d.SystemMessage = "warden cleanup (cleanup.on_start) " + last
				_ = c.Store.SetSetting(ctx, cleanup.SettingLast, "")
			}
			err := detach.StartFor(c.Caller(), "", "cleanup", "--kill", "--min-age", "2m", "--deadline", "20s", "--record")
			return d, err
		},
	}
}
