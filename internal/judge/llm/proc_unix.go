//go:build unix

package llm

import (
	"os/exec"
	"syscall"
)

// setProcessGroup runs claude in its own process group and kills the whole
// group when the deadline passes (claude starts children of its own).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
