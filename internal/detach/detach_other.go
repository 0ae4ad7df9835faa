//go:build !unix

// Package detach starts background processes that outlive their parent.
package detach

import (
	"os/exec"

	"github.com/warden-dev/warden/internal/reqenv"
)

// Start runs bin (this binary when bin is "") with args and does not wait.
func Start(bin string, args ...string) error { return StartFor(nil, bin, args...) }

// StartFor runs bin for the caller env (nil: this process) and reaps it
// when it exits.
func StartFor(env *reqenv.Env, bin string, args ...string) error {
	if bin == "" {
		self, err := executable()
		if err != nil {
			return err
		}
		bin = self
	}
	cmd := exec.Command(bin, args...)
	if env != nil {
		cmd.Env, cmd.Dir = env.Environ, env.Cwd
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}
