package cli

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/usercmd"
)

// userCommands are the commands a user can type into the Claude Code
// prompt; they are CLI subcommands too, backed by the same code
// (internal/usercmd).
func userCommands() []*cobra.Command {
	var cmds []*cobra.Command
	for _, name := range []string{"status", "on", "off", "research"} {
		cmds = append(cmds, userCmd(name)())
	}
	return append(cmds,
		userCmdArgs("safemode", "safemode {on|off|status}", []string{"on", "off", "status"})(),
		userCmdArgs("breaker", "breaker {status|reset}", []string{"status", "reset"})(),
		paceMakerCmd(),
	)
}

func userCmd(name string) func() *cobra.Command {
	return func() *cobra.Command {
		c, _ := usercmd.Lookup(name)
		return &cobra.Command{
			Use:   name,
			Short: strings.ToUpper(c.Help[:1]) + c.Help[1:],
			Args:  cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				return runUserCmd(cmd, name, args)
			},
		}
	}
}

// userCmdArgs is a user command that takes one of a few words.
func userCmdArgs(name, use string, valid []string) func() *cobra.Command {
	return func() *cobra.Command {
		c, _ := usercmd.Lookup(name)
		return &cobra.Command{
			Use:       use,
			Short:     strings.ToUpper(c.Help[:1]) + c.Help[1:],
			Args:      cobra.MaximumNArgs(1),
			ValidArgs: valid,
			RunE: func(cmd *cobra.Command, args []string) error {
				return runUserCmd(cmd, name, args)
			},
		}
	}
}

// paceMakerCmd accepts `warden pace-maker status|on|off` for users migrating
// from claude-pace-maker.
func paceMakerCmd() *cobra.Command {
	return &cobra.Command{
		Use:       "pace-maker {status|on|off}",
		Short:     "Alias of status, on and off for users of claude-pace-maker",
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{"status", "on", "off"},
		RunE: func(cmd *cobra.Command, args []string) error {
			switch args[0] {
			case "status", "on", "off":
				return runUserCmd(cmd, args[0], nil)
			}
			return fmt.Errorf("unknown pace-maker command %q; use status, on or off", args[0])
		},
	}
}

func runUserCmd(cmd *cobra.Command, name string, args []string) error {
	return runUserCmdIn(cmd, name, "", args)
}

// runUserCmdIn runs the prompt command name as typed in session sessionID
// ("": the latest session of this directory, where the command needs one)
// and prints its answer.
func runUserCmdIn(cmd *cobra.Command, name, sessionID string, args []string) error {
	ctx := context.Background()
	c, ok := usercmd.Lookup(name)
	if !ok {
		return fmt.Errorf("unknown command %q", name)
	}
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
}
