//go:build unix

package pace

import (
	"os"
	"os/exec"
	"syscall"
)

// spawnDetached starts this binary with args in a new session (Setsid),
// stdio on /dev/null, and does not wait for it.
func spawnDetached(args []string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(self, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
