package daemon

import (
	"context"
	"io"

	"github.com/warden-dev/warden/internal/hookserve"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// serveHooks answers `warden hook` and `warden statusline` on the keeper's
// socket exactly as the on-demand keeper does (internal/cli keeperCmd):
// same server, same protocol, same fallbacks, so hook latency through the
// daemon is the keeper's. This file is the one place that knows the hook
// server's API; when it changes, only this adapter does.
//
// It writes to the daemon's own store: one pool whose writers take turns
// on an in-process mutex (sqlite.Store) instead of meeting on SQLite's
// write lock, where the busy handler sleeps in steps of up to 100 ms.
func serveHooks(ctx context.Context, st *sqlite.Store, dbPath, socket string, log io.Writer) error {
	return hookserve.ListenAndServe(ctx, socket, hookserve.Options{DBPath: dbPath, Store: st, Log: log})
}
