package lifecycle

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/reqenv"
)

// markerPath is a file that mirrors the store mark, so the status line's
// renders after the first one above the threshold answer with one stat()
// instead of opening the store. The store stays the authority: a missing
// marker falls back to it.
func markerPath(home, sessionID string) string {
	safe := make([]byte, 0, len(sessionID))
	for i := 0; i < len(sessionID) && i < 128; i++ {
		c := sessionID[i]
		if (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' {
			safe = append(safe, c)
		} else {
			safe = append(safe, '_')
		}
	}
	return filepath.Join(home, "state", "ctx-threshold", string(safe))
}

// MarkerFired reports whether this session's mark is cached on disk
// under the warden home home (the caller's: see internal/paths.Of).
func MarkerFired(home, sessionID string) bool {
	if sessionID == "" {
		return false
	}
	_, err := os.Stat(markerPath(home, sessionID))
	return err == nil
}

// SetMarker caches the mark on disk under home (best effort).
func SetMarker(home, sessionID string) {
	if sessionID == "" {
		return
	}
	p := markerPath(home, sessionID)
	if os.MkdirAll(filepath.Dir(p), 0o700) == nil {
		os.WriteFile(p, nil, 0o600)
	}
}

// thresholdKey is the store setting that marks a session whose context
// crossed context.threshold: the handoff was spawned; it is not spawned
// again until SessionStart clears the mark (a compaction, a resume).
func thresholdKey(sessionID string) string { return "lifecycle.ctx_threshold:" + sessionID }

// Marks is what the mark needs of the store: a set-if-unset in one step,
// so two status line renders racing each other spawn one handoff, a read
// and a delete (store.Local has them).
type Marks interface {
	Setting(ctx context.Context, key string) (value string, ok bool, err error)
	ClaimSetting(ctx context.Context, key, value string) (bool, error)
	DeleteSetting(ctx context.Context, key string) error
}

// ClaimThreshold marks sessionID as past the threshold. It returns true
// only for the one caller that set the mark (two status line renders racing
// each other spawn one handoff).
func ClaimThreshold(ctx context.Context, st Marks, sessionID string, pct int, now time.Time) (bool, error) {
	if st == nil || sessionID == "" {
		return false, nil
	}
	val := strconv.Itoa(pct) + " " + Timestamp(now)
	return st.ClaimSetting(ctx, thresholdKey(sessionID), val)
}

// ThresholdFired reports whether the mark is set for sessionID.
func ThresholdFired(ctx context.Context, st Marks, sessionID string) bool {
	if st == nil || sessionID == "" {
		return false
	}
	v, ok, err := st.Setting(ctx, thresholdKey(sessionID))
	return err == nil && ok && v != ""
}

// ClearThreshold removes the mark (SessionStart, SessionEnd); the marker
// file is under the warden home of the caller ctx carries (reqenv).
func ClearThreshold(ctx context.Context, st Marks, sessionID string) error {
	if sessionID == "" {
		return nil
	}
	os.Remove(markerPath(paths.Of(reqenv.From(ctx).Getenv).Home(), sessionID))
	if st == nil {
		return nil
	}
	return st.DeleteSetting(ctx, thresholdKey(sessionID))
}
