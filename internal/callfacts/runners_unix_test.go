//go:build unix

package callfacts

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Definitions that cannot be read change nothing and never hang: none
// at all, too large, a FIFO, malformed.
func TestRunnersBounded(t *testing.T) {
	dir := project(t, map[string]string{
		"package.json": `{"scripts": {"x": "rm -rf ~"`, // malformed
		"justfile":     "x:\n    " + strings.Repeat("#", maxDefBytes) + "\n    rm -rf ~\n",
	})
	if err := syscall.Mkfifo(filepath.Join(dir, "Makefile"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"npm run x", "just x", "make", "task x", "composer x", "cargo x"} {
		f := Bash(cmd, dir, "/home/dev")
		if len(f.Commands) != 1 {
			t.Errorf("%s: want the runner alone, got %q", cmd, ran(f))
		}
	}
}
