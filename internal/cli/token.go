package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/tokencmd"
)

// newTokenCmd is `warden token create|list|revoke` on the local store.
func newTokenCmd() *cobra.Command { return tokencmd.New(openTokenStore) }

// openTokenStore opens the local store. With a shared store configured
// (store.url, WARDEN_DATABASE_URL) the daemon's API checks tokens in
// PostgreSQL, which warden-core does not link: warden-helper runs the
// same command there instead (it replaces this process on Unix).
func openTokenStore(ctx context.Context, cmd *cobra.Command, args []string) (tokencmd.Store, error) {
	cfg, _ := config.Load(paths.UserConfig(), "")
	if u, _ := cfg.StoreURL(); u == "" {
		return sqlite.Open(ctx, paths.DB())
	}
	// The same command line: its path below the root, the flags given,
	// the arguments.
	argv := strings.Fields(cmd.CommandPath())[1:]
	cmd.Flags().Visit(func(f *pflag.Flag) { argv = append(argv, "--"+f.Name+"="+f.Value.String()) })
	argv = append(append(argv, "--"), args...)
	if err := execHelper()(cmd, argv); err != nil {
		return nil, err
	}
	return nil, ExitError{Code: 0} // it ran in warden-helper (where exec is not available)
}
