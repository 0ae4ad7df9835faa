// Package helper finds and runs warden-helper, the second binary that
// carries what the hook process must not link: the network stack (OAuth
// usage polling), image encoding (pace simulate), LLM SDKs. Every package
// linked into `warden` runs its init on every hook event, so rare, heavy
// commands live there and `warden` hands them over. Users still type only
// `warden …`.
package helper

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// Name is the helper binary's file name.
const Name = "warden-helper"

// ErrMissing says the helper is not installed.
var ErrMissing = errors.New(Name + " not found next to warden or on PATH; install both with `make install` (go run ./cmd/warden install installs warden alone)")

// Path finds the helper: next to the running binary first (that is where
// `warden install` puts it), then on PATH.
func Path() (string, error) { return PathOf(Name) }

// PathOf finds the helper binary name the same way (warden-serve, …).
func PathOf(name string) (string, error) {
	if self, err := os.Executable(); err == nil {
		if resolved, err := filepath.EvalSymlinks(self); err == nil {
			self = resolved
		}
		p := filepath.Join(filepath.Dir(self), name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	if name != Name {
		return "", fmt.Errorf("%s not found next to warden or on PATH; install it with `make install`", name)
	}
	return "", ErrMissing
}

// Run runs the helper with args and the given stdio and returns its exit
// code.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	return RunNamed(Name, args, stdin, stdout, stderr)
}

// RunNamed is Run for the helper binary name.
func RunNamed(name string, args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	p, err := PathOf(name)
	if err != nil {
		return 1, err
	}
	cmd := exec.Command(p, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), nil
	}
	if err != nil {
		return 1, fmt.Errorf("run %s: %w", p, err)
	}
	return 0, nil
}
