//go:build !unix

// Package detach starts background processes that outlive their parent.
package detach

import (
	"os"
	"os/exec"
)

// Start runs bin (this binary when bin is "") with args and does not wait.
func Start(bin string, args ...string) error {
	if bin == "" {
		self, err := os.Executable()
		if err != nil {
			return err
		}
		bin = self
	}
	cmd := exec.Command(bin, args...)
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
