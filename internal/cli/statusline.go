package cli

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/hook"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/statusline"
)

func newStatuslineCmd() *cobra.Command {
	var opts statusline.Options
	cmd := &cobra.Command{
		Use:   "statusline [--wrap CMD]",
		Short: "Render the Claude Code status line (reads the status JSON on stdin)",
		Long: `Render warden's status line from the JSON Claude Code pipes to its
statusLine command: model, context use, session cost, git branch, badges and
pacing, on one line or two when COLUMNS is narrow. Colours unless NO_COLOR
is set or TERM is dumb (WARDEN_COLOR=0|1 overrides).

When context_window.used_percentage reaches context.threshold (default 70)
the context shows as "⚠ CTX 74%" and, once per session, a detached
"warden handoff auto" writes a handoff for the next session.

With --wrap, the previous status line command runs first with the same input
and its output comes first. Never fails: always exit 0, nothing on stderr.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			statusline.Run(cmd.InOrStdin(), cmd.OutOrStdout(), statusline.Live(opts))
			// Rendered here, so no keeper answered: start one for the next
			// renders and hooks, as a hook would.
			if cfg, _ := config.Load(paths.UserConfig(), ""); cfg.Hook.Keeper {
				if _, err := os.Stat(paths.DB()); err == nil {
					hook.StartKeeper()
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&opts.Wrap, "wrap", "", "status line command to run first (its output comes before warden's)")
	return cmd
}
