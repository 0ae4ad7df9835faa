package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"github.com/spf13/cobra"
)

func newAgentAttachCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "attach TASK",
		Short: "Show the task's agent on this terminal (tmux attach; detach with C-b d)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := context.Background()
			m, st, err := agentManager(ctx)
			if err != nil {
				return err
			}
			defer st.Close()
			tm := m.Config().Tmux
			if ok, err := tm.HasWindow(ctx, args[0]); err != nil {
				return err
			} else if !ok {
				return fmt.Errorf("task %s has no agent window (see `warden agent list`; an ended agent's screen is in `warden agent logs %s`)", args[0], args[0])
			}
			argv, err := tm.AttachArgv(args[0], os.Getenv("TMUX") != "")
			if err != nil {
				return err
			}
			// tmux takes over the terminal: replace this process.
			path, err := exec.LookPath(argv[0])
			if err != nil {
				return err
			}
			st.Close()
			return syscall.Exec(path, argv, os.Environ())
		},
	}
}
