package lifecycle

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/warden-dev/warden/internal/testenv"
)

// gitRepo makes a temp git repository with one commit on branch main.
func gitRepo(t *testing.T) string { return testenv.GitRepo(t, "README.md", "hello\n") }

func run(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
