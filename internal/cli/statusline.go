package cli

import (
	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/statusline"
)

func init() { register(newStatuslineCmd) }

func newStatuslineCmd() *cobra.Command {
	var opts statusline.Options
	cmd := &cobra.Command{
		Use:   "statusline [--wrap CMD]",
		Short: "Render the Claude Code status line (reads the status JSON on stdin)",
		Long: `Render warden's status line segment from the JSON Claude Code pipes to
its statusLine command. With --wrap, the previous status line command runs
first with the same input and warden's segment is appended to its output.
Never fails: always exit 0, nothing on stderr.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			statusline.Run(cmd.InOrStdin(), cmd.OutOrStdout(), opts)
			return nil
		},
	}
	cmd.Flags().StringVar(&opts.Wrap, "wrap", "", "status line command to run first (its output comes before warden's)")
	return cmd
}
