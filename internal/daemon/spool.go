package daemon

import (
	"context"
	"errors"
	"log/slog"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/store/ship"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// startSpool ships what hooks write to the daemon's local store to the
// shared PostgreSQL store at url (internal/store/ship), as the on-demand
// keeper does: hooks never wait on the network. check is its part of
// /health/db (down while the shared store does not take batches; the
// detail says how much waits and since when); stop ends it after one last
// pass and must run after the hook server stopped and before the store
// closes. With no url there is nothing to ship: check is nil.
func startSpool(st *sqlite.Store, url string, cfg *config.Config, log *slog.Logger) (check func(context.Context) (any, error), stop func()) {
	if url == "" {
		return nil, func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	dial := ship.Dialer(postgres.Open, url)
	retention, keep := ship.Bound(cfg.RetentionDays, cfg.Store.UnshippedKeepDays)
	sh, wait, err := ship.Start(ctx, ship.Options{Spool: st, Dial: dial, Log: log.With("component", "ship"), Retention: retention, UnshippedKeep: keep})
	if err != nil {
		cancel()
		log.Error("shipper not started", "err", err)
		return nil, func() {}
	}
	check = func(ctx context.Context) (any, error) {
		r, err := sh.Report(ctx, url)
		if err != nil {
			return r, err
		}
		if r.Error == "" { // fine, or before the first pass: not known yet
			return r, nil
		}
		// The last pass failed, and the next may be seconds away (back-off):
		// ask the shared store now, and if it answers, wake the shipper.
		if err := ship.Probe(ctx, dial); err != nil {
			r.Error = err.Error()
			return r, errors.New(r.Error)
		}
		sh.Kick()
		r.Reachable, r.Error = true, ""
		return r, nil
	}
	return check, func() { cancel(); wait() }
}
