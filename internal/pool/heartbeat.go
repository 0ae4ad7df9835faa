package pool

import (
	"context"
	"log/slog"
	"time"
)

// Heartbeat writes the worker's row now and then every `every` until ctx
// ends; row gives the live figures (agents running, load). A failed beat
// is logged and retried at the next tick: the row goes stale only after
// several are missed. Each beat also forgets the rows of workers gone for
// ForgetAfter.
func Heartbeat(ctx context.Context, r Registry, every time.Duration, row func() System, log *slog.Logger) {
	beat := func() {
		s := row()
		s.Heartbeat = time.Now().UTC()
		bctx, cancel := context.WithTimeout(ctx, every)
		defer cancel()
		if err := r.Beat(bctx, s); err != nil && ctx.Err() == nil {
			log.Warn("pool heartbeat", "err", err)
		}
		if err := r.Forget(bctx, s.Heartbeat.Add(-ForgetAfter)); err != nil && ctx.Err() == nil {
			log.Warn("pool heartbeat: forget gone workers", "err", err)
		}
	}
	beat()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			beat()
		}
	}
}

// Orphaned reports whether the worker that owns a claim is gone: it has
// no row in the registry (forgotten, or never beat) or its row is stale.
func Orphaned(ctx context.Context, r Registry, owner string, now time.Time) (bool, error) {
	rows, err := r.Systems(ctx, now)
	if err != nil {
		return false, err
	}
	for _, s := range rows {
		if s.Owner == owner {
			return s.Stale, nil
		}
	}
	return true, nil
}
