package testenv

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// WaitFor polls cond until it holds, and fails the test when it still does
// not after within, saying what it waited for and then what each of
// explain returns (a log, a screen): a wait on a condition with a
// deadline, never a sleep that hopes.
func WaitFor(t testing.TB, within time.Duration, what string, cond func() bool, explain ...func() string) {
	t.Helper()
	for deadline := time.Now().Add(within); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			msg := "timed out after " + within.String() + " waiting for " + what
			for _, f := range explain {
				msg += "\n" + f()
			}
			t.Fatal(msg)
			return
		}
	}
}

// Alone copies the file at path (a built binary) into a new temp directory
// with nothing beside it, and returns the copy's path: a `warden` without
// its warden-core has nowhere to run a hook but the keeper or the daemon,
// so an answer proves they gave it.
func Alone(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lone := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := os.WriteFile(lone, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return lone
}
