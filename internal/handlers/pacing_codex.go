package handlers

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/pace/codexrl"
	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/pipeline"
)

// codexPacing paces a Codex session by Codex's own rate limits: the
// newest ones in its rollout (the payload's transcript_path) are stored as
// a "codex" snapshot, and the decision comes from the newest Codex figures
// of any session. No OAuth poll and no estimate: those are Claude Code's.
func codexPacing(ctx context.Context, c *pipeline.Call, st quota.Store, s pace.Settings) (event.Decision, error) {
	if path := c.Input.TranscriptPath; path != "" {
		lim, err := codexrl.Latest(path)
		if errors.Is(err, fs.ErrNotExist) {
			lim, err = nil, nil // not written yet: the stored figures stand
		}
		if err != nil {
			return event.Decision{}, fmt.Errorf("read Codex rate limits from %s: %w", path, err)
		}
		if lim != nil {
			if _, err := pace.RecordCodex(ctx, st, lim.Snapshot, c.Input.SessionID); err != nil {
				return event.Decision{}, err
			}
		}
	}
	rec, err := pace.CodexDecision(ctx, st, s, c.Input.SessionID, c.Now)
	if err != nil {
		return event.Decision{}, err
	}
	return applyDelay(ctx, event.Decision{}, rec), nil
}
