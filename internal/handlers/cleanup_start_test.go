package handlers_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/cleanup"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// With cleanup.on_start the SessionStart hook starts `warden cleanup` in
// the background and returns at once; the cleanup records what it did.
func TestCleanupOnStartRunsDetached(t *testing.T) {
	// The background run must not kill real orphans of this shared machine.
	t.Setenv("WARDEN_TEST_CLEANUP_DRY", "1")
	s := newSim(t, "[cleanup]\non_start = true\n")
	start := time.Now()
	r := s.hook("SessionStart", map[string]any{"source": "startup"})
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("SessionStart took %v: the cleanup must not hold the hook", took)
	}
	if strings.Contains(r.text(), "error") {
		t.Errorf("SessionStart output: %q", r.text())
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(s.home, "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		v, _, _ := st.Setting(context.Background(), cleanup.SettingLast)
		if strings.Contains(v, "orphaned") && strings.Contains(v, "ended") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no record of the background cleanup after 30 s (setting %q = %q)", cleanup.SettingLast, v)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
