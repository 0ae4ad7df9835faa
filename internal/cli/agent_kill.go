package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/agent"
)

func newAgentKillCmd() *cobra.Command {
	var reason string
	cmd := &cobra.Command{
		Use:   "kill TASK [--reason TEXT]",
		Short: "End the task's agent: error with the reason, work archived, worktree removed, branch kept",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := context.Background()
			return withAgentManager(ctx, func(m *agent.Manager) error {
				c, err := m.Kill(ctx, args[0], reason)
				if err != nil {
					return err
				}
				s, err := m.Status(ctx, args[0])
				if err != nil {
					return err
				}
				if c == nil {
					fmt.Fprintf(cmd.OutOrStdout(), "task %s had already ended (%s); cleaned up\n", args[0], s.State)
				} else {
					fmt.Fprintf(cmd.OutOrStdout(), "task %s: %s -> error (%s)\n", args[0], c.From, c.Reason)
				}
				if s.Archive != "" {
					fmt.Fprintf(cmd.OutOrStdout(), "uncommitted work archived to %s\n", s.Archive)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "branch %s kept\n", s.Branch)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&reason, "reason", "killed by the user", "why, for the task's record")
	return cmd
}
