package testenv

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// Run runs cmd to its end and returns what it wrote and its exit code. A
// non-zero exit is a result for the test to check; only a command that
// could not run at all fails the test.
func Run(t testing.TB, cmd *exec.Cmd) (stdout, stderr string, code int) {
	t.Helper()
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	code = exitCode(t, cmd.Run())
	return o.String(), e.String(), code
}

// RunCombined is Run with stdout and stderr in one string, in the order
// they were written.
func RunCombined(t testing.TB, cmd *exec.Cmd) (out string, code int) {
	t.Helper()
	b, err := cmd.CombinedOutput()
	return string(b), exitCode(t, err)
}

func exitCode(t testing.TB, err error) int {
	t.Helper()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	t.Fatal(err)
	return -1
}
