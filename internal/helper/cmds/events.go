package cmds

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store"
)

// newEventsCmd is `warden-helper events --shared`: the shared store's
// events as JSON lines, for the commands of warden-core that read them
// (`warden replay --shared`, `warden policy test --from-history
// --shared`). warden-core evaluates them itself; only the read needs
// pgx, which the hooks' binary must not link.
func newEventsCmd() *cobra.Command {
	var shared bool
	var since int64
	var session string
	cmd := &cobra.Command{
		Use:    "events --shared [--since-us N] [--session ID]",
		Short:  "Print the shared store's events as JSON lines (for warden replay --shared)",
		Args:   cobra.NoArgs,
		Hidden: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !shared {
				return errors.New("warden-helper reads the shared store only: pass --shared")
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			cfg, _ := config.Load(paths.UserConfig(), "")
			url, from := cfg.StoreURL()
			if url == "" {
				return fmt.Errorf("no shared store configured: set store.url ([store] url in %s) or %s; without --shared, warden reads this machine's store",
					paths.UserConfig(), config.DatabaseURLEnv)
			}
			st, msg := connectShared(ctx, url, from)
			if st == nil {
				return errors.New(msg)
			}
			defer st.Close()
			f := store.Filter{SessionID: session}
			if since > 0 {
				f.Since = time.UnixMicro(since)
			}
			evs, err := st.Events(ctx, f)
			if err != nil {
				return fmt.Errorf("read events from the shared store %s: %v", st.Where(), err)
			}
			enc := json.NewEncoder(cmd.OutOrStdout())
			for i := range evs {
				if err := enc.Encode(&evs[i]); err != nil {
					return err
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&shared, "shared", false, "read the shared PostgreSQL store")
	cmd.Flags().Int64Var(&since, "since-us", 0, "only events at or after this unix time in microseconds")
	cmd.Flags().StringVar(&session, "session", "", "only this session's events")
	return cmd
}
