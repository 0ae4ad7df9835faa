package statusline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/paths"
)

// The pace segment: computed from the payload's rate_limits (pure, fast),
// and the figures persisted for the hooks (pacing's best source). The store
// is opened only when the figures changed or the last write is older than
// pace.StatuslineRefresh — a small cache file says which — because opening
// it costs milliseconds a render cannot spare every time. Live sets it as
// Options.Pacing.

func pacingSegment(env *Env) Segment {
	five, seven, ok := pace.ParseRateLimits(env.Raw)
	if !ok {
		return Segment{}
	}
	now := env.now()
	cfg, _ := config.Load(env.paths().UserConfig(), env.Caller.Abs(env.In.Project()))
	s := pace.SettingsFrom(cfg)
	if s.Enabled {
		recordRateLimits(env, five, seven, now)
	}
	text := pace.SegmentFromPayload(env.Raw, s, now)
	if text == "" {
		return Segment{}
	}
	color := "32"
	if strings.Contains(text, "▲") {
		color = "33"
	}
	return Segment{Text: text, Color: color}
}

// recordRateLimits writes the figures to the store when they differ from
// the last ones written, or every StatuslineRefresh.
func recordRateLimits(env *Env, five, seven quota.Window, now time.Time) {
	key := figuresKey(five, seven)
	marker := filepath.Join(env.paths().Home(), "state", "rate-limits")
	if b, err := os.ReadFile(marker); err == nil {
		if k, at, ok := strings.Cut(string(b), " "); ok && k == key {
			if sec, err := strconv.ParseInt(at, 10, 64); err == nil && now.Sub(time.Unix(sec, 0)) < pace.StatuslineRefresh {
				return
			}
		}
	}
	if env.OpenStore == nil {
		return
	}
	st, ok := env.OpenStore()
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), env.storeBudget())
	defer cancel()
	if pace.RecordStatusline(ctx, st, env.Raw, now) == nil {
		os.MkdirAll(filepath.Dir(marker), 0o700)
		os.WriteFile(marker, []byte(key+" "+strconv.FormatInt(now.Unix(), 10)), 0o600)
	}
}

func figuresKey(five, seven quota.Window) string {
	h := sha256.New()
	for _, w := range []quota.Window{five, seven} {
		if w.Util != nil {
			h.Write([]byte(strconv.FormatFloat(*w.Util, 'g', -1, 64)))
		}
		h.Write([]byte{'|'})
		if w.ResetsAt != nil {
			h.Write([]byte(strconv.FormatInt(w.ResetsAt.Unix(), 10)))
		}
		h.Write([]byte{';'})
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// paths resolves the caller's files.
func (e *Env) paths() paths.Paths {
	if e.Caller == nil {
		return paths.Of(nil)
	}
	return paths.Of(e.Caller.Getenv)
}
