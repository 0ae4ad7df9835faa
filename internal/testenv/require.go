package testenv

import (
	"os/exec"
	"testing"
)

// SkipOrFail skips the test with why, or fails it under CI, where every
// dependency of the suite must be there (make test installs them).
func SkipOrFail(t testing.TB, why string) {
	t.Helper()
	if InCI() {
		t.Fatal(why + " (required in CI)")
	}
	t.Skip(why)
}

// RequireCommand returns the path of the named executable on PATH; without
// it the test is skipped, or failed under CI, naming the Debian package
// that brings it (scripts/test-deps.sh installs it).
func RequireCommand(t testing.TB, name, debianPackage string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		SkipOrFail(t, name+" not found: install it (apt-get install "+debianPackage+"; make test does)")
	}
	return p
}
