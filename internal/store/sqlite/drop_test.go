package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
)

// DropUnshipped, retention's bound for rows the shared store never took:
// with nothing unshipped past the bound it deletes nothing (ordinary
// retention's business, even for old shipped rows); otherwise it deletes
// the old prefix of the chain and the old session states, counts only the
// unshipped ones, moves the event mark past them and records it all in
// unshipped_drops; the rest of the chain verifies.
func TestDropUnshippedRecordsWhatWent(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "warden.db")
	st, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Now()
	old := now.AddDate(0, 0, -100)
	bound := now.AddDate(0, 0, -90)
	sqlitetest.RecordAt(t, st, "s", old, 5, nil)
	if err := st.RecordHook(ctx, &store.Event{SessionID: "s", Event: "PreToolUse"}, nil); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"a", "b"} {
		if err := st.SaveSession(ctx, &store.Session{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	sqlitetest.Exec(t, db, "UPDATE sessions SET updated_us = ?", old.UnixMicro())
	// Everything old shipped: nothing for the bound to do.
	st.SetSetting(ctx, store.SettingShipEvents, "5")
	st.SetSetting(ctx, store.SettingShipSessions, "9223372036854775807 z")
	if d, err := st.DropUnshipped(ctx, bound, "test"); err != nil || d.Events != 0 || d.Sessions != 0 {
		t.Fatalf("with everything old shipped: %+v %v", d, err)
	}
	if n, _, _ := st.VerifyChain(ctx); n != 6 {
		t.Fatalf("the bound deleted shipped rows: %d left", n)
	}
	// Only events 1–2 and no session state shipped.
	st.SetSetting(ctx, store.SettingShipEvents, "2")
	st.SetSetting(ctx, store.SettingShipSessions, "")
	d, err := st.DropUnshipped(ctx, bound, "the shared store kept failing")
	if err != nil {
		t.Fatal(err)
	}
	if d.Events != 3 || d.FirstID != 3 || d.LastID != 5 || d.Sessions != 2 || d.Reason != "the shared store kept failing" ||
		d.First.Unix() != old.Add(2*time.Second).Unix() || d.Last.Unix() != old.Add(4*time.Second).Unix() {
		t.Fatalf("dropped %+v", d)
	}
	if n, brk, err := st.VerifyChain(ctx); err != nil || brk != nil || n != 1 {
		t.Fatalf("chain after the bound: %d rows, %+v, %v", n, brk, err)
	}
	if v, _, _ := st.Setting(ctx, store.SettingShipEvents); v != "5" {
		t.Errorf("event mark = %q, want 5 (past the pruned rows)", v)
	}
	drops, err := st.Drops(ctx, 10)
	if err != nil || len(drops) != 1 || drops[0].Events != 3 || drops[0].FirstID != 3 || drops[0].Sessions != 2 {
		t.Fatalf("on record: %+v %v", drops, err)
	}
	if d, err := st.DropUnshipped(ctx, bound, "again"); err != nil || d.Events != 0 || d.Sessions != 0 {
		t.Fatalf("a second run: %+v %v", d, err)
	}
}
