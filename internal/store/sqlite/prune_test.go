package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
)

// PruneShipped deletes only what the shipper's marks say is shipped: the
// events up to its event mark (a prefix of the chain, so the anchor is the
// last shipped old row) and the session states at or before its session
// mark, keyed by (updated_us, id) so two states of the same microsecond are
// told apart. HasUnshipped and UnshippedBefore see the same rows.
func TestPruneShippedFollowsTheMarks(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "warden.db")
	st, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Now()
	old := now.AddDate(0, 0, -100)
	cut := now.AddDate(0, 0, -60)
	sqlitetest.RecordAt(t, st, "s", old, 6, nil)
	if err := st.RecordHook(ctx, &store.Event{SessionID: "s", Event: "PreToolUse"}, nil); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"a", "b", "c"} {
		if err := st.SaveSession(ctx, &store.Session{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	sqlitetest.Exec(t, db, "UPDATE sessions SET updated_us = ?", old.UnixMicro())

	unshipped := func(wantAny bool, wantEvents, wantSessions int64) {
		t.Helper()
		if has, err := st.HasUnshipped(ctx); err != nil || has != wantAny {
			t.Fatalf("HasUnshipped = %v (%v), want %v", has, err, wantAny)
		}
		ne, ns, err := st.UnshippedBefore(ctx, cut)
		if err != nil || ne != wantEvents || ns != wantSessions {
			t.Fatalf("UnshippedBefore = %d events, %d sessions (%v), want %d, %d", ne, ns, err, wantEvents, wantSessions)
		}
	}
	prune := func(wantEvents, wantSessions int64) {
		t.Helper()
		ne, ns, err := st.PruneShipped(ctx, cut)
		if err != nil || ne != wantEvents || ns != wantSessions {
			t.Fatalf("PruneShipped = %d events, %d sessions (%v), want %d, %d", ne, ns, err, wantEvents, wantSessions)
		}
		if _, brk, err := st.VerifyChain(ctx); err != nil || brk != nil {
			t.Fatalf("chain after PruneShipped: %+v %v", brk, err)
		}
	}

	// Nothing shipped: nothing goes.
	unshipped(true, 6, 3)
	prune(0, 0)

	// Events 1–3 and session "a" shipped; "b" has the same updated_us
	// but sorts after the mark's id.
	st.SetSetting(ctx, store.SettingShipEvents, "3")
	st.SetSetting(ctx, store.SettingShipSessions, fmt.Sprintf("%d a", old.UnixMicro()))
	unshipped(true, 3, 2)
	prune(3, 1)
	if a, _, _ := st.Setting(ctx, store.SettingChainAnchor); !strings.HasPrefix(a, "3 ") {
		t.Errorf("anchor %q, want the last shipped old row, 3", a)
	}
	if s, _ := st.Session(ctx, "b"); s == nil {
		t.Error("session b, not shipped, was pruned")
	}

	// Everything shipped, the new event too: only what is old goes.
	st.SetSetting(ctx, store.SettingShipEvents, "7")
	st.SetSetting(ctx, store.SettingShipSessions, fmt.Sprintf("%d c", old.UnixMicro()))
	unshipped(false, 0, 0)
	prune(3, 2)
	if evs, _ := st.Events(ctx, store.Filter{}); len(evs) != 1 || evs[0].ID != 7 {
		t.Fatalf("after the full prune: %+v", evs)
	}

	// A mark that is not a number names itself and deletes nothing.
	st.SetSetting(ctx, store.SettingShipEvents, "x")
	if _, _, err := st.PruneShipped(ctx, now.Add(time.Hour)); err == nil || !strings.Contains(err.Error(), store.SettingShipEvents) {
		t.Fatalf("a broken mark: %v", err)
	}
	if evs, _ := st.Events(ctx, store.Filter{}); len(evs) != 1 {
		t.Fatalf("a broken mark deleted rows: %d left", len(evs))
	}
}
