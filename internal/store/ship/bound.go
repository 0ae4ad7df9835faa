package ship

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// A shared store that never answers — a wrong password, a database that
// was dropped — would keep the local store growing for ever: retention
// keeps what is not shipped (sqlite.Store.PruneShipped). Two things bound
// it. Failures that retrying cannot mend are told from outages
// (Permanent), said as such and retried only at the long back-off; and
// rows past retention_days + store.unshipped_keep_days go even when not
// shipped (enforceBound), on record (store.Dropped), never silently.

// Permanent reports whether err is a failure only a change of the
// configuration or the server mends: the server answered and refused
// the login, or lacks the database or the rights (postgres.ConfigError).
func Permanent(err error) bool {
	var p interface{ Permanent() bool }
	return errors.As(err, &p) && p.Permanent()
}

// boundEvery is how often a running shipper applies the bound; it also
// does at start, so an on-demand keeper's shipper applies it each time.
const boundEvery = time.Hour

// bound is the age past which unshipped rows go; 0: none (no retention
// configured).
func (s *Shipper) bound() time.Duration {
	if s.o.Retention <= 0 {
		return 0
	}
	return s.o.Retention + s.o.UnshippedKeep
}

// enforceBound deletes the rows older than the bound that were never
// shipped, recording how many and which, and logs it; it returns what it
// dropped (zero when nothing was that old).
func (s *Shipper) enforceBound(ctx context.Context, now time.Time) (store.Dropped, error) {
	b := s.bound()
	if b <= 0 {
		return store.Dropped{}, nil
	}
	s.pass.Lock() // the marks move under no pass
	defer s.pass.Unlock()
	reason := fmt.Sprintf("not shipped within retention_days (%s) + store.unshipped_keep_days (%s)", days(s.o.Retention), days(s.o.UnshippedKeep))
	e := s.Status().Error
	if e == "" { // before this shipper's first pass: what the last one noted
		if v, _, err := s.setting(ctx, SettingLastError); err == nil {
			_, e, _ = strings.Cut(v, " ")
		}
	}
	if e != "" {
		reason += "; the shared store kept failing: " + e
	}
	d, err := call(ctx, s.o.CallTimeout, func(ctx context.Context) (store.Dropped, error) {
		return s.o.Spool.DropUnshipped(ctx, now.Add(-b), reason)
	})
	if err != nil {
		return d, err
	}
	if d.Events > 0 || d.Sessions > 0 {
		s.o.Log.Error("pruned rows the shared store never took: they were older than retention_days + store.unshipped_keep_days",
			"events", d.Events, "first_id", d.FirstID, "last_id", d.LastID, "first", d.First, "last", d.Last,
			"sessions", d.Sessions, "reason", reason,
			"fix", "fix the shared store (store.url / WARDEN_DATABASE_URL), or raise store.unshipped_keep_days to keep rows longer")
	}
	return d, nil
}

// Bound is Options.Retention and Options.UnshippedKeep from the
// configuration's retention_days and store.unshipped_keep_days.
func Bound(retentionDays, keepDays int) (retention, keep time.Duration) {
	return time.Duration(retentionDays) * 24 * time.Hour, time.Duration(keepDays) * 24 * time.Hour
}

// days writes a whole number of days.
func days(d time.Duration) string {
	return fmt.Sprintf("%d days", int(d/(24*time.Hour)))
}
