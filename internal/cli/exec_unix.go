//go:build unix

package cli

import (
	"os"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/helper"
)

// execBinary runs helper binary bin with path and the command's arguments
// in place of this process (exec): same pid, stdio and signals.
func execBinary(bin string, path ...string) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		p, err := helper.PathOf(bin)
		if err != nil {
			return err
		}
		argv := append(append([]string{p}, path...), args...)
		return syscall.Exec(p, argv, os.Environ())
	}
}
