package hook

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// prune deletes rows older than retention_days, at most once a day: it runs
// at SessionStart (not on every tool call) and remembers when it last did.
// With a shared store configured (shipping), rows not shipped yet stay
// however old: the local store is the only copy until they are.
//
// Past retention_days + store.unshipped_keep_days (keepDays) even those
// go, recorded as dropped: the same bound the shipper applies, here too
// because with the keeper off and no `warden serve` no shipper runs at
// all, and the local store would otherwise grow for ever.
func prune(ctx context.Context, s store.Local, retentionDays, keepDays int, shipping bool, now time.Time, locks string) {
	if retentionDays <= 0 {
		return
	}
	if v, ok, err := s.Setting(ctx, store.SettingLastPrune); err != nil {
		return
	} else if ok {
		if last, err := strconv.ParseInt(v, 10, 64); err == nil && now.Sub(time.Unix(last, 0)) < 24*time.Hour {
			return
		}
	}
	before := now.Add(-time.Duration(retentionDays) * 24 * time.Hour)
	pruneRows := s.Prune
	if shipping {
		pruneRows = s.PruneShipped
	}
	if _, _, err := pruneRows(ctx, before); err != nil {
		return
	}
	if shipping && keepDays >= 0 {
		reason := "not shipped within retention_days (" + strconv.Itoa(retentionDays) + " days) + store.unshipped_keep_days (" +
			strconv.Itoa(keepDays) + " days), found by a hook's retention"
		if _, err := s.DropUnshipped(ctx, before.Add(-time.Duration(keepDays)*24*time.Hour), reason); err != nil {
			return
		}
	}
	pruneLocks(locks, now.Add(-7*24*time.Hour))
	_ = s.SetSetting(ctx, store.SettingLastPrune, strconv.FormatInt(now.Unix(), 10))
}

// pruneLocks removes session lock files untouched for a week: a session
// that old is over, and a hook that still wanted the lock would create the
// file again.
func pruneLocks(dir string, before time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && fi.ModTime().Before(before) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
