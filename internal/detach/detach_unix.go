//go:build unix

// Package detach starts background processes that outlive their parent: a
// hook or a status line render must return at once, so the slow work it
// starts (a handoff, a usage poll, a lazy judge) runs on its own.
//
// Every child is reaped: a goroutine waits for it. In a hook's own process
// that goroutine dies with the process (the child is re-parented to init);
// in a resident process (the keeper, the daemon) it collects the exit
// status, so no `<defunct>` process piles up for as long as it runs.
package detach

import (
	"os/exec"
	"syscall"

	"github.com/warden-dev/warden/internal/reqenv"
)

// Start runs bin (this binary when bin is "") with args with this
// process's environment and directory; see StartFor.
func Start(bin string, args ...string) error { return StartFor(nil, bin, args...) }

// StartFor runs bin (this binary when bin is "") with args for the caller
// env (nil: this process): its environment, in its directory; in a new
// session (Setsid: no controlling terminal, not killed with the hook's
// process group), stdio on /dev/null. It does not wait for the child to
// finish, but reaps it when it does.
func StartFor(env *reqenv.Env, bin string, args ...string) error {
	cmd, err := command(env, bin, args)
	if err != nil {
		return err
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	// nil Stdin/Stdout/Stderr: os/exec connects them to /dev/null.
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait() //nolint:errcheck // reaping is the point; the status is the child's business
	return nil
}

func command(env *reqenv.Env, bin string, args []string) (*exec.Cmd, error) {
	if bin == "" {
		self, err := executable()
		if err != nil {
			return nil, err
		}
		bin = self
	}
	cmd := exec.Command(bin, args...)
	if env != nil {
		cmd.Env = env.Environ
		cmd.Dir = env.Cwd
	}
	return cmd, nil
}
