package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The judge's tools stay inside the project: relative escapes, absolute
// paths, symlinks out, and globs with .. are refused.
func TestProjectFSStaysInside(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	write(t, outside, "secret.txt", "SECRET\n")
	write(t, root, "a/b.go", "package a\n// TODO fix\n")
	write(t, root, "c.txt", "one\ntwo\nthree\n")
	write(t, root, ".git/config", "[core]\n// TODO not here\n")
	os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link.txt"))
	os.Symlink(outside, filepath.Join(root, "linkdir"))
	fsys, err := newProjectFS(root)
	if err != nil {
		t.Fatal(err)
	}
	run := func(name string, in map[string]any) (string, error) {
		b, _ := json.Marshal(in)
		return fsys.call(name, b)
	}
	for _, in := range []map[string]any{
		{"path": "../" + filepath.Base(outside) + "/secret.txt"},
		{"path": filepath.Join(outside, "secret.txt")},
		{"path": "link.txt"},
		{"path": "linkdir/secret.txt"},
		{"path": "/etc/passwd"},
	} {
		out, err := run("Read", in)
		if err == nil || strings.Contains(out, "SECRET") || !strings.Contains(err.Error(), "outside the project") {
			t.Errorf("Read %v: %q, %v; want refused as outside", in, out, err)
		}
	}
	if _, err := run("Grep", map[string]any{"pattern": "SECRET", "path": "linkdir"}); err == nil {
		t.Errorf("Grep through a symlinked directory was allowed")
	}
	if _, err := run("Glob", map[string]any{"pattern": "../*"}); err == nil {
		t.Errorf("Glob ../* was allowed")
	}

	out, err := run("Read", map[string]any{"path": "c.txt", "offset": 2, "limit": 1})
	if err != nil || out != "     2\ttwo\n… (more lines; Read again with offset 3)\n" {
		t.Errorf("Read offset: %q %v", out, err)
	}
	out, err = run("Glob", map[string]any{"pattern": "**/*.go"})
	if err != nil || out != "a/b.go\n" {
		t.Errorf("Glob: %q %v", out, err)
	}
	out, err = run("Grep", map[string]any{"pattern": "TODO"})
	if err != nil || out != "a/b.go:2: // TODO fix\n" {
		t.Errorf("Grep (.git skipped): %q %v", out, err)
	}
	if _, err := run("Grep", map[string]any{"pattern": "("}); err == nil || !strings.Contains(err.Error(), "bad regular expression") {
		t.Errorf("bad regexp: %v", err)
	}
	if _, err := run("Bash", map[string]any{"command": "ls"}); err == nil {
		t.Errorf("an unknown tool ran")
	}
}

func TestGlobMatch(t *testing.T) {
	for _, c := range []struct {
		pat, name string
		want      bool
	}{
		{"*.go", "a/b/c.go", true},
		{"**/*.go", "c.go", true},
		{"**/*.go", "a/b/c.go", true},
		{"a/**/c.go", "a/c.go", true},
		{"a/*/c.go", "a/b/x/c.go", false},
		{"internal/**", "internal/x/y", true},
		{"*_test.go", "a/x_test.go", true},
		{"*_test.go", "a/x.go", false},
	} {
		if got := globMatch(c.pat, c.name); got != c.want {
			t.Errorf("globMatch(%q, %q) = %v", c.pat, c.name, got)
		}
	}
}
