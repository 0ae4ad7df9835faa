package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/usercmd"
)

// `warden tempo on|off|status` and `warden tempo session on|off|status
// [--session ID]`: the same command the user types in the prompt
// (internal/usercmd/tempo.go).
func init() { register(tempoCmd) }

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
			ctx := context.Background()
			c, _ := usercmd.Lookup("tempo")
			cwd, _ := os.Getwd()
			env := &usercmd.Env{StorePath: paths.DB(), ProjectDir: cwd, SessionID: sessionID}
			env.Config, env.ConfigProblems = config.Load(paths.UserConfig(), cwd)
			st, err := sqlite.Open(ctx, paths.DB())
			if err != nil {
				env.StoreErr = err
			} else {
				defer st.Close()
				env.Store = st
			}
			out, err := c.Run(ctx, env, args)
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), out)
			return nil
		},
	}
	c.Flags().StringVar(&sessionID, "session", "", "session id for `tempo session` (default: the latest session of this directory)")
	return c
}
