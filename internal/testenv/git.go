package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Git runs git args in dir and returns its output; a failure fails the test
// with the output.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// GitRepo makes a temp git repository with one commit on branch main that
// adds file with content. Without git the test is skipped, or failed in CI.
func GitRepo(t testing.TB, file, content string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if InCI() {
			t.Fatal("git is required")
		}
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	Git(t, dir, "init", "-q", "-b", "main")
	Git(t, dir, "config", "user.email", "t@example.com")
	Git(t, dir, "config", "user.name", "t")
	Git(t, dir, "config", "commit.gpgsign", "false")
	if err := os.WriteFile(filepath.Join(dir, file), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	Git(t, dir, "add", ".")
	Git(t, dir, "commit", "-q", "-m", "init")
	return dir
}
