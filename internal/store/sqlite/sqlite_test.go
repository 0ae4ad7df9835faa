package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

func open(t *testing.T) *Store {
	t.Helper()
	st, err := Open(context.Background(), filepath.Join(t.TempDir(), "sub", "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestOpenCreatesSchemaInWAL(t *testing.T) {
	st := open(t)
	ctx := context.Background()
	if err := st.Check(ctx); err != nil {
		t.Fatal(err)
	}
	v, err := st.SchemaVersion(ctx)
	if err != nil || v != LatestVersion() || v < 1 {
		t.Fatalf("version %d (%v), want %d", v, err, LatestVersion())
	}
	var n int
	st.db.QueryRow("SELECT count(*) FROM schema_migrations").Scan(&n)
	if n != v {
		t.Errorf("schema_migrations has %d rows, want %d", n, v)
	}
	// Re-opening applies nothing twice.
	st2, err := Open(ctx, st.Path())
	if err != nil {
		t.Fatal(err)
	}
	st2.Close()
	st.db.QueryRow("SELECT count(*) FROM schema_migrations").Scan(&n)
	if n != v {
		t.Errorf("migrations re-applied: %d rows", n)
	}
}

func TestMigrationsAreNumberedInOrder(t *testing.T) {
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range ms {
		if (i > 0 && m.version <= ms[i-1].version) || strings.TrimSpace(m.sql) == "" {
			t.Errorf("migration %d: %s", i, m.name)
		}
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	st := open(t)
	st.db.Exec("PRAGMA user_version = 999")
	st.Close()
	if _, err := Open(context.Background(), st.Path()); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("want a 'newer than this warden' error, got %v", err)
	}
}

func TestRecordAndQueryEvents(t *testing.T) {
	st := open(t)
	ctx := context.Background()
	base := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	dur := int64(42)
	for i, ev := range []store.Event{
		{Time: base, SessionID: "a", Event: "PreToolUse", Tool: "Bash", Decision: "deny", Rule: "r1", Reason: "no"},
		{Time: base.Add(time.Minute), SessionID: "a", Event: "PostToolUse", Tool: "Bash", DurationMS: &dur},
		{Time: base.Add(2 * time.Minute), SessionID: "b", Event: "Stop", Raw: []byte(`{"x":1}`)},
	} {
		ev := ev
		if err := st.RecordHook(ctx, &ev, &store.Session{ID: ev.SessionID, State: []byte(`{"tool_count":1}`)}); err != nil {
			t.Fatal(err)
		}
		if ev.ID != int64(i+1) {
			t.Errorf("id %d, want %d", ev.ID, i+1)
		}
	}
	all, _ := st.Events(ctx, store.Filter{})
	if len(all) != 3 || all[0].Decision != "deny" || all[1].Decision != "allow" || all[1].Harness != "claude" {
		t.Fatalf("events: %+v", all)
	}
	if all[1].DurationMS == nil || *all[1].DurationMS != 42 || string(all[2].Raw) != `{"x":1}` || !all[0].Time.Equal(base) {
		t.Errorf("round trip: %+v", all)
	}
	if got, _ := st.Events(ctx, store.Filter{SessionID: "a"}); len(got) != 2 {
		t.Errorf("session filter: %d", len(got))
	}
	if got, _ := st.Events(ctx, store.Filter{Event: "Stop"}); len(got) != 1 {
		t.Errorf("event filter: %d", len(got))
	}
	if got, _ := st.Events(ctx, store.Filter{Since: base.Add(30 * time.Second)}); len(got) != 2 {
		t.Errorf("since filter: %d", len(got))
	}
	if got, _ := st.Events(ctx, store.Filter{AfterID: 2}); len(got) != 1 || got[0].ID != 3 {
		t.Errorf("after filter: %+v", got)
	}
	if got, _ := st.Events(ctx, store.Filter{Limit: 2}); len(got) != 2 || got[0].ID != 2 || got[1].ID != 3 {
		t.Errorf("limit keeps the newest, oldest first: %+v", got)
	}
	counts, err := st.DecisionCounts(ctx, base)
	if err != nil || counts["deny"] != 1 || counts["allow"] != 2 {
		t.Errorf("counts %v %v", counts, err)
	}
}

func TestSessionsAndSettings(t *testing.T) {
	st := open(t)
	ctx := context.Background()
	if s, err := st.Session(ctx, "nope"); s != nil || err != nil {
		t.Errorf("unknown session: %v %v", s, err)
	}
	st.RecordHook(ctx, &store.Event{Event: "SessionStart", SessionID: "s"}, &store.Session{ID: "s", Cwd: "/p", State: []byte(`{"a":1}`)})
	st.RecordHook(ctx, &store.Event{Event: "Stop", SessionID: "s"}, &store.Session{ID: "s", State: []byte(`{"a":2}`)})
	s, err := st.Session(ctx, "s")
	if err != nil || s == nil || string(s.State) != `{"a":2}` || s.Cwd != "/p" {
		t.Errorf("session: %+v %v", s, err)
	}
	if _, ok, _ := st.Setting(ctx, "k"); ok {
		t.Error("unset setting found")
	}
	st.SetSetting(ctx, "k", "v1")
	st.SetSetting(ctx, "k", "v2")
	if v, ok, _ := st.Setting(ctx, "k"); !ok || v != "v2" {
		t.Errorf("setting %q %v", v, ok)
	}
}

func TestPrune(t *testing.T) {
	st := open(t)
	ctx := context.Background()
	now := time.Now()
	st.RecordHook(ctx, &store.Event{Time: now.AddDate(0, 0, -61), Event: "Stop"}, nil)
	st.RecordHook(ctx, &store.Event{Time: now.AddDate(0, 0, -59), Event: "Stop"}, nil)
	ne, _, err := st.Prune(ctx, now.AddDate(0, 0, -60))
	if err != nil || ne != 1 {
		t.Fatalf("pruned %d (%v), want 1", ne, err)
	}
	if all, _ := st.Events(ctx, store.Filter{}); len(all) != 1 {
		t.Errorf("left %d", len(all))
	}
}

func TestCorruptFileIsReportedNotReplaced(t *testing.T) {
	path := filepath.Join(t.TempDir(), "warden.db")
	junk := []byte(strings.Repeat("not sqlite ", 1000))
	os.WriteFile(path, junk, 0o600)
	_, err := Open(context.Background(), path)
	if err == nil {
		t.Fatal("opened a corrupt file")
	}
	if !strings.Contains(err.Error(), path) {
		t.Errorf("error must name the file: %v", err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != string(junk) {
		t.Error("corrupt file was modified")
	}
}
