package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/agent"
)

func newAgentLogsCmd() *cobra.Command {
	var lines int
	cmd := &cobra.Command{
		Use:   "logs TASK [-n LINES]",
		Short: "The agent's screen: live while it runs, the last capture after it ended",
		Long: `Print the agent's tmux pane (scrollback included). Only for reading: an
agent's state comes from its hook events, never from its screen.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := context.Background()
			return withAgentManager(ctx, func(m *agent.Manager) error {
				out, err := m.Logs(ctx, args[0], lines)
				if err != nil {
					return err
				}
				fmt.Fprint(cmd.OutOrStdout(), out)
				return nil
			})
		},
	}
	cmd.Flags().IntVarP(&lines, "lines", "n", 200, "lines of scrollback")
	return cmd
}
