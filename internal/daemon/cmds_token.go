package daemon

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/tokencmd"
)

// newTokenCmd is `warden token …` where the API checks tokens: the
// shared PostgreSQL store when one is configured (warden-core hands the
// command over, as it does not link pgx), else the local store.
func newTokenCmd() *cobra.Command { return tokencmd.New(openTokens) }

func openTokens(ctx context.Context, _ *cobra.Command, _ []string) (tokencmd.Store, error) {
	cfg, _ := config.Load(paths.UserConfig(), "")
	if u, _ := cfg.StoreURL(); u != "" {
		return postgres.Open(ctx, u)
	}
	return sqlite.Open(ctx, paths.DB())
}
