//go:build unix

package fileid

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReplacedFileGetsAnotherID: the same path renamed over by another file
// of the same content is told apart; the same file stat'ed twice is not.
func TestReplacedFileGetsAnotherID(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "key")
	os.WriteFile(p, []byte("same"), 0o600)
	a, _ := os.Stat(p)
	b, _ := os.Stat(p)
	if Of(a) == "" || Of(a) != Of(b) {
		t.Fatalf("one file: %q %q", Of(a), Of(b))
	}
	os.WriteFile(p+".new", []byte("same"), 0o600)
	os.Rename(p+".new", p)
	c, _ := os.Stat(p)
	if Of(c) == Of(a) {
		t.Fatalf("a replaced file kept its id %q", Of(c))
	}
}
