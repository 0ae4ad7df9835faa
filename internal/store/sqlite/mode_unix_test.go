//go:build unix

package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A new store and its WAL and shared-memory files are the user's alone
// (0600) under the usual umask 022, which would make them 0644: they hold
// prompts, events, token hashes and webhook secrets. An existing store's
// mode is left as the user set it.
func TestNewStoreIsPrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "w.db")
	st, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.SetSetting(context.Background(), "k", "v"); err != nil { // the WAL and SHM files exist once written
		t.Fatal(err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if m := fi.Mode().Perm(); m != 0o600 {
			t.Errorf("%s: mode %#o, want 0600", filepath.Base(p), m)
		}
	}
	st.Close()
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	st2, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	st2.Close()
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("reopening changed the mode the user set: %#o", fi.Mode().Perm())
	}
}
