package install

import (
	"os"
	"strings"
	"testing"
)

// Install makes a warden home made by hand with 0755 the user's alone, and
// says so.
func TestInstallMakesHomePrivate(t *testing.T) {
	e := newEnv(t)
	if err := os.MkdirAll(e.wardenHome, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(e.wardenHome, 0o755); err != nil {
		t.Fatal(err)
	}
	e.install(t, e.opts())
	fi, err := os.Stat(e.wardenHome)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o700 || !strings.Contains(e.out.String(), "made "+e.wardenHome+" private (it was 0755") {
		t.Errorf("home %#o after install; output:\n%s", fi.Mode().Perm(), e.out.String())
	}
}
