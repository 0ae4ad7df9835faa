package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKeeperLeftNoteNeedsAHome: a keeper whose store was removed says why
// in warden's log when warden's home is still there, and makes nothing
// when the whole home is gone — making it again only to log left a stray
// home behind for every removed one (a test's temp home, an uninstall).
func TestKeeperLeftNoteNeedsAHome(t *testing.T) {
	home := filepath.Join(t.TempDir(), "wh")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("WARDEN_HOME", home)
	gone := errors.New("the store file was removed")

	noteKeeperLeft(gone)
	b, err := os.ReadFile(filepath.Join(home, "logs", "keeper.log"))
	if err != nil || !strings.Contains(string(b), "the store file was removed; left") {
		t.Fatalf("keeper.log = %q, %v; want the reason it left", b, err)
	}

	if err := os.RemoveAll(home); err != nil {
		t.Fatal(err)
	}
	noteKeeperLeft(gone)
	if _, err := os.Stat(home); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("warden home made again after it was removed: stat = %v", err)
	}
}
