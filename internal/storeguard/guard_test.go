package storeguard

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A file removed, or replaced by another under its name, latches a fault
// that names the file; the first fault stays the one reported.
func TestCheckFileSeesTheStoreRemovedOrReplaced(t *testing.T) {
	for _, how := range []string{"removed", "replaced"} {
		t.Run(how, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "warden.db")
			if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
			// Held open, as SQLite holds the store: its inode is not
			// freed, so a new file cannot take its number.
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var heard []Fault
			g := New(p, func(f Fault) { heard = append(heard, f) })
			if err := g.WatchFile(p); err != nil {
				t.Fatal(err)
			}
			if err := g.CheckFile(); err != nil || g.Current() != nil {
				t.Fatalf("an untouched file: %v", err)
			}
			os.Remove(p)
			if how == "replaced" {
				os.WriteFile(p, []byte("y"), 0o600)
			}
			err = g.CheckFile()
			if !errors.Is(err, ErrFault) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), how) {
				t.Fatalf("CheckFile: %v", err)
			}
			if g.Observe(fmt.Errorf("write: %w", syscall.ENOSPC)); len(heard) != 1 || !heard[0].Gone {
				t.Fatalf("faults heard: %+v", heard)
			}
			if err := g.Refuse(); !errors.Is(err, ErrFault) || !strings.Contains(err.Error(), how) {
				t.Fatalf("Refuse after the fault: %v", err)
			}
		})
	}
}

// Only errors that say the store cannot write latch a fault.
func TestObserveLatchesOnlyStorageFaults(t *testing.T) {
	g := New("/s/warden.db", nil)
	if err := g.Observe(errors.New("task x is done")); errors.Is(err, ErrFault) || g.Current() != nil {
		t.Fatalf("an ordinary error latched: %v", err)
	}
	err := g.Observe(fmt.Errorf("commit: %w", syscall.ENOSPC))
	if !errors.Is(err, ErrFault) || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "free space") {
		t.Fatalf("a full disk: %v", err)
	}
	if f := g.Current(); f == nil || f.Store != "/s/warden.db" || f.Gone {
		t.Fatalf("fault %+v", f)
	}
}
