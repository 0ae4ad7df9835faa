package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// headBranch reads HEAD from a clone's .git directory, through a linked
// worktree's .git file, from a subdirectory, and reports a detached HEAD
// as git rev-parse --abbrev-ref does.
func TestHeadBranch(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	clone := filepath.Join(root, "app")
	write(filepath.Join(clone, ".git", "HEAD"), "ref: refs/heads/main\n")
	if err := os.MkdirAll(filepath.Join(clone, "src", "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	wt := filepath.Join(root, "wt-login")
	write(filepath.Join(clone, ".git", "worktrees", "wt-login", "HEAD"), "ref: refs/heads/feature/login\n")
	write(filepath.Join(wt, ".git"), "gitdir: ../app/.git/worktrees/wt-login\n")
	det := filepath.Join(root, "detached")
	write(filepath.Join(det, ".git", "HEAD"), "0123456789abcdef0123456789abcdef01234567\n")
	for dir, want := range map[string]string{clone: "main", filepath.Join(clone, "src", "pkg"): "main", wt: "feature/login", det: "HEAD"} {
		if got, ok := headBranch(dir); !ok || got != want {
			t.Errorf("headBranch(%s) = %q, %v; want %q", dir, got, ok, want)
		}
	}
	if _, ok := headBranch("relative/dir"); ok {
		t.Error("a relative directory was read")
	}
}
