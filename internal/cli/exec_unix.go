//go:build unix

package cli

import (
	"os"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/helper"
)

// execHelper runs `warden-helper path… args…` in place of this process
// (exec): same pid, stdio and signals, so a service manager's SIGTERM
// reaches the daemon itself.
func execHelper(path ...string) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		p, err := helper.Path()
		if err != nil {
			return err
		}
		argv := append(append([]string{p}, path...), args...)
		return syscall.Exec(p, argv, os.Environ())
	}
}
