//go:build unix

package statusline

import (
	"os"
	"os/exec"
	"syscall"
)

// spawnDetached starts this binary with args in a new session (Setsid),
// stdio on /dev/null, and does not wait for it: the status line returns at
// once and the child is re-parented when it exits.
func spawnDetached(args []string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(self, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	// nil Stdin/Stdout/Stderr: os/exec connects them to /dev/null.
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
