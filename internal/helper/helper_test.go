package helper_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/testenv"
)

// TestWardenHandsOverToTheHelper builds both binaries side by side, as
// `make install` installs them, and runs `warden pace simulate`: warden
// must find warden-helper next to itself and pass flags and output through.
func TestWardenHandsOverToTheHelper(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two binaries")
	}
	dir := testenv.Binaries(t, "warden", "warden-helper")
	chart := filepath.Join(t.TempDir(), "c.svg")
	cmd := exec.Command(filepath.Join(dir, "warden"), "pace", "simulate", "--steady", "60", "--start", "2025-11-03T00:00:00Z", "--out", chart)
	cmd.Env = append(os.Environ(), "WARDEN_HOME="+t.TempDir(), "PATH=/usr/bin:/bin")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Total delay added") {
		t.Fatalf("warden pace simulate: %v\n%s", err, out)
	}
	for _, f := range []string{chart} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	// A bad flag is the helper's error, with warden's exit code.
	cmd = exec.Command(filepath.Join(dir, "warden"), "pace", "simulate", "--days", "99")
	cmd.Env = append(os.Environ(), "WARDEN_HOME="+t.TempDir())
	out, err = cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), "--days") {
		t.Errorf("bad flag: %v\n%s", err, out)
	}
}
