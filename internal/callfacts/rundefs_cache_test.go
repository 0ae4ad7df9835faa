package callfacts

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// findDef remembers the runner files missing in a directory only while
// the directory is unchanged: a Makefile made after a first look is found
// on the next.
func TestFindDefAbsentCache(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(dir, old, old); err != nil {
		t.Fatal(err)
	}
	find := func() (string, bool) {
		n := &normalizer{f: &Facts{}, files: map[string]text{}}
		p, _, ok := n.findDef(dir, false, "GNUmakefile", "makefile", "Makefile")
		return p, ok
	}
	if _, ok := find(); ok {
		t.Fatal("found a makefile in an empty directory")
	}
	if known := absentIn(dir, old.UnixNano(), true); !known["Makefile"] || !known["GNUmakefile"] {
		t.Fatalf("missing names not remembered: %v", known)
	}
	if _, ok := find(); ok {
		t.Fatal("found a makefile in an empty directory (remembered)")
	}
	mk := filepath.Join(dir, "Makefile")
	if err := os.WriteFile(mk, []byte("all:\n\techo hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p, ok := find(); !ok || p != mk {
		t.Fatalf("Makefile made since: %q %v", p, ok)
	}
	// a directory that is not there has none of the files, and counts
	// each against maxDefFiles as a read would
	n := &normalizer{f: &Facts{}, files: map[string]text{}}
	if _, _, ok := n.findDef(filepath.Join(dir, "none"), false, "a", "b", "c"); ok || n.defReads != 3 {
		t.Fatalf("missing directory: ok %v, reads %d", ok, n.defReads)
	}
}
