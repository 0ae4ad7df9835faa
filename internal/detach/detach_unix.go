//go:build unix

// Package detach starts background processes that outlive their parent: a
// hook or a status line render must return at once, so the slow work it
// starts (a handoff, a usage poll, a lazy judge) runs on its own.
package detach

import (
	"os"
	"os/exec"
	"syscall"
)

// Start runs bin (this binary when bin is "") with args in a new session
// (Setsid: no controlling terminal, not killed with the hook's process
// group), stdio on /dev/null, and does not wait for it.
func Start(bin string, args ...string) error {
	if bin == "" {
		self, err := os.Executable()
		if err != nil {
			return err
		}
		bin = self
	}
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	// nil Stdin/Stdout/Stderr: os/exec connects them to /dev/null.
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
