//go:build unix

package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The on-demand keeper leaves when its store is removed, and says so
// where someone can read it: started by a hook, its stderr goes nowhere,
// so the line goes to $WARDEN_HOME/logs/keeper.log.
func TestKeeperSaysWhyItLeftARemovedStore(t *testing.T) {
	s := newServed(t)
	db := filepath.Join(s.home, "warden.db")
	for _, p := range []string{db, db + "-wal", db + "-shm"} {
		os.Remove(p)
	}
	select {
	case <-s.keeper.Exited:
	case <-time.After(30 * time.Second):
		t.Fatal("the keeper stayed on a removed store")
	}
	b, _ := os.ReadFile(filepath.Join(s.home, "logs", "keeper.log"))
	if !strings.Contains(string(b), "the store file was removed or replaced") || !strings.Contains(string(b), db) {
		t.Errorf("keeper.log: %q", b)
	}
}
