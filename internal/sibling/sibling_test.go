package sibling

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A binary not beside the running one is found in an absolute PATH
// directory; relative entries (the caller's working directory) and files
// that are not executable are passed over; when none is found, the error
// names the binary, the running one and the fix.
func TestFindOnPath(t *testing.T) {
	dir := t.TempDir()
	notExec := t.TempDir()
	for d, mode := range map[string]os.FileMode{dir: 0o755, notExec: 0o644} {
		if err := os.WriteFile(filepath.Join(d, "warden-x"), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	got, err := FindOnPath("warden-x", strings.Join([]string{"", ".", notExec, dir}, string(os.PathListSeparator)))
	if err != nil || got != filepath.Join(dir, "warden-x") {
		t.Errorf("FindOnPath = %q, %v; want %s", got, err, filepath.Join(dir, "warden-x"))
	}
	_, err = FindOnPath("warden-x", strings.Join([]string{".", notExec}, string(os.PathListSeparator)))
	self, _ := os.Executable()
	self, _ = filepath.EvalSymlinks(self)
	if !IsMissing(err) || !strings.Contains(err.Error(), "warden-x is missing next to "+self+" and on PATH") || !strings.Contains(err.Error(), "make install") {
		t.Errorf("not found: %v", err)
	}
}

// The binary beside the running one wins over PATH.
func TestFindPrefersTheSibling(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	self, _ = filepath.EvalSymlinks(self)
	beside := filepath.Join(filepath.Dir(self), "warden-sibling-test")
	if err := os.WriteFile(beside, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Skipf("cannot write beside the test binary: %v", err)
	}
	t.Cleanup(func() { os.Remove(beside) })
	onPath := t.TempDir()
	os.WriteFile(filepath.Join(onPath, "warden-sibling-test"), []byte("#!/bin/sh\n"), 0o755)
	t.Setenv("PATH", onPath)
	if got, err := Find("warden-sibling-test"); err != nil || got != beside {
		t.Errorf("Find = %q, %v; want %s", got, err, beside)
	}
}

// A front built by `go run` lives alone in a temporary folder: the error
// says to build all three instead of blaming a broken install.
func TestMissingErrorUnderGoRun(t *testing.T) {
	goRunSelf := filepath.Join(os.TempDir(), "go-build3322974", "b001", "exe", Front)
	if msg := (&MissingError{Name: Core, Self: goRunSelf}).Error(); !strings.Contains(msg, "`go run ./cmd/warden` builds the front alone") || !strings.Contains(msg, "make build") {
		t.Errorf("go run front: %q", msg)
	}
	for _, self := range []string{"/usr/local/bin/warden", "/home/dev/go-build/exe/warden", "", "/tmp/exe/warden"} {
		if msg := (&MissingError{Name: Core, Self: self}).Error(); strings.Contains(msg, "go run") || !strings.Contains(msg, "make install") {
			t.Errorf("installed front %q: %q", self, msg)
		}
	}
}
