//go:build unix

package e2e

import (
	"os/exec"
	"syscall"
)

// killGroupOnCancel runs cmd in its own process group and makes a context
// cancel kill the whole group, so a timed-out claude does not leave its
// shells and hooks running.
func killGroupOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
