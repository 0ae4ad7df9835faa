package pool

import (
	"context"
	"log/slog"
	"time"

	"github.com/warden-dev/warden/internal/pace/quota"
)

// leaseOAuth is pace.LeaseOAuth (the usage endpoint's poll lease); pool
// does not import pace, whose hook-side code it has no use for.
const leaseOAuth = "oauth"

// Ledger keeps a worker's local pacing ledger and the pool's in step, so
// the whole pool shares one account's figures and polls the usage
// endpoint once per interval, not once per machine — while the hooks
// keep reading and writing only the local store:
//
//   - the newest status-line and usage-endpoint snapshots go both ways
//     (the status line of any machine paces every machine; the
//     scheduler's quota reads the shared ledger);
//   - the poll lease: a hook polls after taking the LOCAL lease. While
//     another worker holds the POOL's lease, this worker keeps its local
//     lease taken until the pool's frees; when the pool's is free and
//     this machine has active sessions (a hook will poll), it takes the
//     pool's and frees its local one; the outcome of the local poll
//     (backoff, Retry-After) is copied to the pool's lease.
//
// A hook that takes a freed local lease in the instant between two
// reads may poll once more: the ledger narrows the pool to one poll per
// interval, it does not make it a hard guarantee.
type Ledger struct {
	Local, Shared quota.Store
	// Owner is this worker's claim owner: its holder name on the pool's
	// lease, and (prefixed "pool:") on the local lease it blocks.
	Owner string
	// Interval is the pacing poll interval (pacing.poll_interval_s).
	Interval time.Duration
	// Every is how often Run syncs (default 2 s). A local lease blocked
	// for another worker stays blocked 2×Every past the pool's, so that
	// worker's next round renews the pool's lease first.
	Every time.Duration
	Log   *slog.Logger
}

// Run syncs every l.Every until ctx ends; a failed round is logged.
func (l *Ledger) Run(ctx context.Context) {
	every := l.every()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		rctx, cancel := context.WithTimeout(ctx, every)
		if err := l.Sync(rctx, time.Now()); err != nil && ctx.Err() == nil {
			l.Log.Warn("pool pacing ledger", "err", err)
		}
		cancel()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Sync is one round at now.
func (l *Ledger) Sync(ctx context.Context, now time.Time) error {
	for _, src := range []string{quota.SourceStatusline, quota.SourceOAuth} {
		if err := l.syncSnapshots(ctx, src); err != nil {
			return err
		}
	}
	return l.syncLease(ctx, now)
}

// syncSnapshots copies the newer of the two stores' latest snapshot of
// src into the other.
func (l *Ledger) syncSnapshots(ctx context.Context, src string) error {
	loc, err := l.Local.LatestSnapshot(ctx, src)
	if err != nil {
		return err
	}
	sh, err := l.Shared.LatestSnapshot(ctx, src)
	if err != nil {
		return err
	}
	copyTo := func(st quota.Store, s *quota.Snapshot) error {
		c := *s
		c.ID = 0
		_, err := st.AddSnapshot(ctx, &c)
		return err
	}
	switch {
	case loc != nil && (sh == nil || loc.Time.After(sh.Time)):
		return copyTo(l.Shared, loc)
	case sh != nil && (loc == nil || sh.Time.After(loc.Time)):
		return copyTo(l.Local, sh)
	}
	return nil
}

func (l *Ledger) every() time.Duration {
	if l.Every <= 0 {
		return 2 * time.Second
	}
	return l.Every
}

func (l *Ledger) syncLease(ctx context.Context, now time.Time) error {
	pl, err := l.Shared.LeaseState(ctx, leaseOAuth)
	if err != nil {
		return err
	}
	ll, err := l.Local.LeaseState(ctx, leaseOAuth)
	if err != nil {
		return err
	}
	block := "pool:" + l.Owner
	switch {
	case pl.Holder == l.Owner && pl.Next.After(now):
		// Ours: a hook here polls (the local lease freed), and a local
		// poll that backed off holds the pool back as long.
		if ll.Holder == block && ll.Next.After(now) {
			return l.Local.FinishLease(ctx, leaseOAuth, block, now, now, ll.Failures, ll.LastStatus)
		}
		if ll.Holder != block && ll.Next.After(pl.Next) {
			return l.Shared.FinishLease(ctx, leaseOAuth, l.Owner, now, ll.Next, ll.Failures, ll.LastStatus)
		}
		return nil
	case pl.Next.After(now):
		// Another worker's: no hook here may poll before it frees, nor in
		// the moment before that worker (or another) takes it again.
		until := pl.Next.Add(2 * l.every())
		if !ll.Next.Before(until) {
			return nil
		}
		if !ll.Next.After(now) {
			_, err := l.Local.TryLease(ctx, leaseOAuth, block, now, until.Sub(now))
			return err
		}
		return l.Local.FinishLease(ctx, leaseOAuth, ll.Holder, now, until, ll.Failures, ll.LastStatus)
	}
	// The pool's lease is free: take it when a hook here will poll.
	active, err := l.Local.ActiveSessions(ctx, now.Add(-l.Interval))
	if err != nil || len(active) == 0 {
		return err
	}
	hold := l.Interval
	if ll.Holder != block && ll.Next.After(now) {
		hold = max(hold, ll.Next.Sub(now)) // a local backoff still runs
	}
	got, err := l.Shared.TryLease(ctx, leaseOAuth, l.Owner, now, hold)
	if err != nil || !got {
		return err
	}
	if ll.Holder == block && ll.Next.After(now) {
		return l.Local.FinishLease(ctx, leaseOAuth, block, now, now, ll.Failures, ll.LastStatus)
	}
	return nil
}
