package hookclient

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/testenv"
)

// TestMain runs the package's tests in a home of their own (testenv.Main).
func TestMain(m *testing.M) { testenv.Main(m) }

// `go install …/cmd/...@latest` puts the binaries in GOBIN, and a package
// manager may put the front alone somewhere: the front runs the warden-core
// it finds on PATH when none is beside it, and names both places when
// neither has one.
func TestFrontFindsWardenCoreOnPath(t *testing.T) {
	built := testenv.Binaries(t, "warden")
	alone := t.TempDir()
	front := filepath.Join(alone, "warden")
	data, err := os.ReadFile(filepath.Join(built, "warden"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(front, data, 0o755); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	run := func(path string) (string, error) {
		cmd := exec.Command(front, "version")
		cmd.Env = []string{"HOME=" + home, "WARDEN_HOME=" + filepath.Join(home, ".warden"), "PATH=" + path}
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("/nonexistent:" + built)
	if err != nil || !strings.HasPrefix(out, "warden ") {
		t.Fatalf("front with warden-core on PATH: %v\n%s", err, out)
	}
	out, err = run("/usr/bin:/bin")
	if err == nil || !strings.Contains(out, "warden-core is missing next to "+front+" and on PATH") {
		t.Errorf("front without warden-core anywhere: %v\n%s", err, out)
	}
}
