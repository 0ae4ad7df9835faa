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

// The store's file removed under the daemon often shows first as a failed
// write ("unable to open database file"), before the once-a-second look:
// the fault latched is the cause (gone, which stops the daemon), not the
// failed write. A lesser fault latched before the file goes (a full disk)
// gives way to it once the file is seen gone.
func TestAWriteFailingOnARemovedFileLatchesGone(t *testing.T) {
	watched := func(t *testing.T) (string, *Guard, *[]Fault) {
		p := filepath.Join(t.TempDir(), "warden.db")
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		heard := &[]Fault{}
		g := New(p, func(f Fault) { *heard = append(*heard, f) })
		if err := g.WatchFile(p); err != nil {
			t.Fatal(err)
		}
		return p, g, heard
	}
	t.Run("write first", func(t *testing.T) {
		p, g, heard := watched(t)
		os.Remove(p)
		err := g.Observe(fmt.Errorf("claim next task: %w", syscall.EIO))
		if !errors.Is(err, ErrFault) || !errors.Is(err, syscall.EIO) || !strings.Contains(err.Error(), "removed while the daemon ran") {
			t.Fatalf("Observe: %v", err)
		}
		if len(*heard) != 1 || !(*heard)[0].Gone {
			t.Fatalf("faults heard: %+v", *heard)
		}
		// Another store's write (a shared queue) is not about this file.
		g2 := New(p, nil)
		if f := g2.ObserveStore("postgres://db/warden", syscall.EIO); !errors.Is(f, ErrFault) || g2.Current().Gone {
			t.Fatalf("another store's fault: %v %+v", f, g2.Current())
		}
	})
	t.Run("full disk then removed", func(t *testing.T) {
		p, g, heard := watched(t)
		g.Observe(syscall.ENOSPC)
		if err := g.RefuseGone(); err != nil {
			t.Fatalf("a full disk refuses work under way: %v", err)
		}
		os.Remove(p)
		if err := g.CheckFile(); !strings.Contains(fmt.Sprint(err), "removed") {
			t.Fatalf("CheckFile after the full disk: %v", err)
		}
		if len(*heard) != 2 || (*heard)[0].Gone || !(*heard)[1].Gone || g.RefuseGone() == nil {
			t.Fatalf("faults heard: %+v", *heard)
		}
		g.Observe(syscall.ENOSPC)
		if len(*heard) != 2 || !g.Current().Gone {
			t.Fatalf("a full disk after the file went replaced it: %+v", *heard)
		}
	})
}
