//go:build unix

package judge

import (
	"os/exec"
	"syscall"
)

// spawnDetached starts bin with args in a new session (Setsid), stdio on
// /dev/null, and does not wait for it: it outlives the hook.
func spawnDetached(bin string, args []string) error {
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
