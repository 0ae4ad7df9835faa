package cli

import (
	"context"
	"log/slog"
	"os"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/ship"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// startShipper ships the keeper's store to the shared PostgreSQL store
// when one is configured (WARDEN_DATABASE_URL, or store.url in the user
// config), in the background, until ctx ends: hooks keep writing the local
// store and never wait on the network (internal/store/ship). wait returns
// once the shipper has stopped, so the store is closed after it.
func startShipper(ctx context.Context, st *sqlite.Store) (wait func()) {
	cfg, _ := config.Load(paths.UserConfig(), "")
	url, _ := cfg.StoreURL()
	if url == "" {
		return func() {}
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil)).With("component", "ship")
	_, wait, err := ship.Start(ctx, ship.Options{Spool: st, Dial: ship.Postgres(url), Log: log})
	if err != nil {
		log.Error("shipper not started", "err", err)
		return func() {}
	}
	return wait
}
