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
// It opens a store of its own, as the keeper does: hooks served side by
// side (records, pacing sleeps) get a few connections, apart from the
// API's.
func serveHooks(ctx context.Context, dbPath, socket string, log io.Writer) error {
	st, err := sqlite.Open(ctx, dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	st.DB().SetMaxOpenConns(8)
	return hookserve.ListenAndServe(ctx, socket, hookserve.Options{DBPath: dbPath, Store: st, Log: log})
}
