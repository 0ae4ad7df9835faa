package handlers

import (
	"context"
	"path/filepath"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/lifecycle"
	"github.com/warden-dev/warden/internal/pipeline"
)

// PreCompact writes <project>/.warden/state/pre-compact-state.json: branch,
// uncommitted count and recent file paths (from git and the session's tool
// calls), never contents or diffs. PreCompact cannot carry context to
// Claude, so the note is injected by the SessionStart(compact) briefing
// that follows the compaction.
func lifecycleCompactHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "lifecycle-compact",
		Events: []event.Name{event.PreCompact},
		Run: func(ctx context.Context, c *pipeline.Call) (event.Decision, error) {
			if c.ProjectDir == "" {
				return event.Decision{}, nil
			}
			g := lifecycle.Git(ctx, c.ProjectDir)
			ls := loadLifecycle(c.State)
			files := make([]string, 0, len(g.Files)+len(ls.RecentFiles))
			seen := map[string]bool{}
			add := func(p string) {
				if p != "" && !seen[p] {
					seen[p] = true
					files = append(files, p)
				}
			}
			for _, f := range g.Files {
				add(f)
			}
			for i := len(ls.RecentFiles) - 1; i >= 0; i-- { // most recent first
				add(ls.RecentFiles[i])
			}
			if len(files) > 50 {
				files = files[:50]
			}
			st := lifecycle.PreCompactState{
				CapturedAt:         lifecycle.Timestamp(c.Now),
				Branch:             g.Branch,
				UncommittedChanges: g.Uncommitted,
				RecentFiles:        files,
				SessionID:          c.Input.SessionID,
				Trigger:            c.Input.Trigger,
			}
			return event.Decision{}, lifecycle.WriteJSON(
				filepath.Join(lifecycle.StateDir(c.ProjectDir), lifecycle.PreCompactFile), &st)
		},
	}
}
