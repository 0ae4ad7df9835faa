package cli

import "github.com/spf13/cobra"

// `warden tempo on|off|status` and `warden tempo session on|off|status
// [--session ID]`: the same command the user types in the prompt
// (internal/usercmd/tempo.go).

func tempoCmd() *cobra.Command {
	var sessionID string
	c := &cobra.Command{
		Use:   "tempo {on|off|status} | tempo session {on|off|status} [--session ID]",
		Short: "Switch the tempo completion judge, for every session or for one",
		Long: `Tempo judges, at every Stop, whether the work the user asked for is done,
and blocks the stop with what is missing (at most tempo.max_blocks times per
turn). "warden tempo on|off" switches it for every session; "warden tempo
session on|off" for one session (typed in Claude Code: the current one; here:
--session, else the latest session of this directory) and wins over the rest.`,
		Args:      cobra.MaximumNArgs(2),
		ValidArgs: []string{"on", "off", "status", "session"},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runUserCmdIn(cmd, "tempo", sessionID, args)
		},
	}
	c.Flags().StringVar(&sessionID, "session", "", "session id for `tempo session` (default: the latest session of this directory)")
	return c
}
