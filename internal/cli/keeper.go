package cli

import (
	"context"
	"errors"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/keeper"
)

func init() { register(keeperCmd) }

// keeperCmd is started by hooks, detached; users have no reason to run it,
// so it is hidden from help.
func keeperCmd() *cobra.Command {
	var idle time.Duration
	cmd := &cobra.Command{
		Use:    "keeper",
		Short:  "Hold the store open so hooks start fast (started by hooks)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
			defer stop()
			err := keeper.Run(ctx, keeper.Options{DBPath: paths.DB(), LockPath: paths.KeeperLock(), Idle: idle})
			if errors.Is(err, keeper.ErrRunning) {
				return nil
			}
			return err
		},
	}
	cmd.Flags().DurationVar(&idle, "idle", 30*time.Minute, "exit after this long without a new event")
	return cmd
}
