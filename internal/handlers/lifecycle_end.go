package handlers

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/lifecycle"
	"github.com/warden-dev/warden/internal/pipeline"
)

// lifecycleWarnOut is where SessionEnd prints its dirty-tree warning
// (Claude Code shows a SessionEnd hook's stderr in its debug log; the
// warning is also recorded as the event's decision and repeated in the
// next SessionStart briefing).
var lifecycleWarnOut io.Writer = os.Stderr

// Stop and SessionEnd write <project>/.warden/state/last-session.json and
// set learn-pending; SessionEnd warns when the tree is dirty and clears the
// context-threshold mark.
func lifecycleEndHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "lifecycle-end",
		Events: []event.Name{event.Stop, event.SessionEnd},
		Run: func(ctx context.Context, c *pipeline.Call) (event.Decision, error) {
			if c.ProjectDir == "" || c.Input.AgentID != "" {
				return event.Decision{}, nil
			}
			g := lifecycle.Git(ctx, c.ProjectDir)
			ls := loadLifecycle(c.State)
			rec := lifecycle.LastSession{
				EndedAt:            lifecycle.Timestamp(c.Now),
				Branch:             g.Branch,
				UncommittedChanges: g.Uncommitted,
				Phase:              stateString(c, "phase"),
				Task:               ls.Task,
				SessionID:          c.Input.SessionID,
				Reason:             "stop",
			}
			if c.Event == event.SessionEnd {
				rec.Reason = c.Input.Reason
				if rec.Reason == "" {
					rec.Reason = "end"
				}
			}
			if t := stateString(c, "task"); t != "" {
				rec.Task = t
			}
			err := lifecycle.WriteJSON(filepath.Join(lifecycle.StateDir(c.ProjectDir), lifecycle.LastSessionFile), &rec)
			if err2 := lifecycle.SetLearnPending(c.ProjectDir, c.Now); err == nil {
				err = err2
			}
			if c.Event != event.SessionEnd {
				return event.Decision{}, err
			}
			_ = lifecycle.ClearThreshold(ctx, c.Store, c.Input.SessionID)
			if g.Uncommitted == 0 {
				return event.Decision{}, err
			}
			msg := fmt.Sprintf("session ended with %d uncommitted change%s on branch %s", g.Uncommitted,
				plural(g.Uncommitted), orDash(g.Branch))
			fmt.Fprintln(lifecycleWarnOut, "warden: warning: "+msg)
			return event.Decision{Verdict: event.Warn, RuleID: "lifecycle:dirty-tree", Mode: "warn", Reason: msg}, err
		},
	}
}

// stateString reads a string another handler (workflow gates) keeps under
// Values[key], or "".
func stateString(c *pipeline.Call, key string) string {
	var s string
	if c.State.Get(key, &s) {
		return s
	}
	var obj map[string]any
	if c.State.Get("workflow", &obj) {
		if v, ok := obj[key].(string); ok {
			return v
		}
	}
	return ""
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
