//go:build unix

package loop

import (
	"os/exec"
	"syscall"
)

// setGroup starts the check in its own process group and kills the group
// on cancel, so a check's children (a test runner's workers) go too.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
