package postgres

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/warden-dev/warden/internal/testenv"
)

// filterIndexes are the indexes migration 0065 builds concurrently.
var filterIndexes = []string{"events_event_fold", "events_tool_fold", "events_decision_fold", "events_session_prefix"}

// indexInfo is one index as the catalog has it.
type indexInfo struct {
	oid   uint32
	valid bool
	def   string
}

func indexes(t testing.TB, st *Store) map[string]indexInfo {
	t.Helper()
	rows, err := st.pool.Query(context.Background(), `SELECT c.relname, c.oid, i.indisvalid, pg_get_indexdef(c.oid)
		FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = ANY($1)`, filterIndexes)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]indexInfo{}
	for rows.Next() {
		var name string
		var ii indexInfo
		if err := rows.Scan(&name, &ii.oid, &ii.valid, &ii.def); err != nil {
			t.Fatal(err)
		}
		out[name] = ii
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// wantFilterIndexes fails unless all four are there, valid, on the
// expressions SearchEvents compares.
func wantFilterIndexes(t testing.TB, st *Store) map[string]indexInfo {
	t.Helper()
	got := indexes(t, st)
	for _, name := range filterIndexes {
		ii, ok := got[name]
		want := "translate("
		if name == "events_session_prefix" {
			want = `COLLATE "C"`
		}
		if !ok || !ii.valid || !strings.Contains(ii.def, want) {
			t.Errorf("index %s: %+v (present %v); want a valid index with %s", name, ii, ok, want)
		}
	}
	return got
}

// at64 is a store on a fresh database migrated up to 0064, the schema
// before the filter indexes (0061 is the newest migration below 0065),
// with a few events.
func at64(t testing.TB) *Store {
	t.Helper()
	ctx := context.Background()
	st, err := Connect(ctx, testenv.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.migrateTo(ctx, 64); err != nil {
		t.Fatal(err)
	}
	ms, _ := Migrations()
	want := 0
	for _, v := range ms {
		if v <= 64 {
			want = v
		}
	}
	if v, err := st.SchemaVersion(ctx); err != nil || v != want {
		t.Fatalf("schema version %d, %v; want %d", v, err, want)
	}
	if _, err := st.pool.Exec(ctx, `INSERT INTO events (id, ts_us, session_id, event, tool, decision)
		SELECT g, 1700000000000000 + g, 'sess-' || (g % 7), 'PreToolUse', 'Bash', 'allow' FROM generate_series(1, 500) g`); err != nil {
		t.Fatal(err)
	}
	return st
}

func versions(t testing.TB, st *Store) map[int]int64 {
	t.Helper()
	rows, err := st.pool.Query(context.Background(), "SELECT version, applied_us FROM schema_migrations")
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]int64{}
	for rows.Next() {
		var v int
		var us int64
		rows.Scan(&v, &us)
		out[v] = us
	}
	return out
}

// TestFilterIndexMigration: 0065 builds its indexes concurrently outside
// a transaction, on a fresh database and on one at 0064 with rows; a
// second run changes nothing (no migration re-applied, no index rebuilt).
func TestFilterIndexMigration(t *testing.T) {
	ctx := context.Background()
	fresh := open(t)
	wantFilterIndexes(t, fresh)
	if v, _ := fresh.SchemaVersion(ctx); v != LatestVersion() {
		t.Errorf("fresh database at version %d; want %d", v, LatestVersion())
	}

	st := at64(t)
	if got := indexes(t, st); len(got) != 0 {
		t.Fatalf("at 0064 the filter indexes exist already: %v", got)
	}
	if err := st.migrate(ctx); err != nil {
		t.Fatal(err)
	}
	before := wantFilterIndexes(t, st)
	applied := versions(t, st)
	if _, ok := applied[65]; !ok {
		t.Errorf("0065 not recorded: %v", applied)
	}
	if err := st.migrate(ctx); err != nil {
		t.Fatalf("second run: %v", err)
	}
	if after := indexes(t, st); !equalIndexes(before, after) {
		t.Errorf("a second run rebuilt indexes:\nbefore %v\nafter  %v", before, after)
	}
	if again := versions(t, st); !equalVersions(applied, again) {
		t.Errorf("a second run changed schema_migrations:\nbefore %v\nafter  %v", applied, again)
	}
}

func equalIndexes(a, b map[string]indexInfo) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func equalVersions(a, b map[int]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestFilterIndexMigrationRepairsAnInterruptedBuild: a concurrent build
// that failed or was cut off leaves an INVALID index under its name, which
// IF NOT EXISTS alone would take for done. Here a unique build on
// duplicate rows leaves one named events_tool_fold; the migration drops
// it and builds the real one.
func TestFilterIndexMigrationRepairsAnInterruptedBuild(t *testing.T) {
	ctx := context.Background()
	st := at64(t)
	if _, err := st.pool.Exec(ctx, "CREATE UNIQUE INDEX CONCURRENTLY events_tool_fold ON events (tool)"); err == nil {
		t.Fatal("a unique index on 500 rows of tool Bash was built")
	}
	if ii := indexes(t, st)["events_tool_fold"]; ii.oid == 0 || ii.valid {
		t.Fatalf("no invalid index left to repair: %+v", ii)
	}
	if err := st.migrate(ctx); err != nil {
		t.Fatal(err)
	}
	wantFilterIndexes(t, st)
}

// TestFilterIndexMigrationLetsWritersThrough: while 0065 builds, events
// can still be written. A transaction holding a write on events makes the
// build wait for it; a plain CREATE INDEX would queue its share lock in
// front of every later writer, so a second insert would wait too (and
// here time out). Built concurrently, the second insert goes through.
func TestFilterIndexMigrationLetsWritersThrough(t *testing.T) {
	ctx := context.Background()
	st := at64(t)
	url := st.pool.Config().ConnConfig.ConnString()
	holder, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close(ctx)
	tx, err := holder.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "INSERT INTO events (id, ts_us, session_id, event) VALUES (1001, 1, 'held', 'Stop')"); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- st.migrate(ctx) }()
	// The build is under way and waits for the open write.
	watch, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close(ctx)
	deadline := time.Now().Add(time.Minute)
	for {
		var n int
		if err := watch.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE query LIKE '%CREATE INDEX%' AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("the migration ended (%v) without waiting for the open write", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the index build did not start within a minute")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := watch.Exec(ctx, "SET lock_timeout = '3s'"); err != nil {
		t.Fatal(err)
	}
	if _, err := watch.Exec(ctx, "INSERT INTO events (id, ts_us, session_id, event) VALUES (1002, 2, 'during-build', 'Stop')"); err != nil {
		t.Errorf("a write while the index builds: %v", err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	wantFilterIndexes(t, st)
}

// TestNoTransactionMigrationsMustRepeat: outside a transaction a migration
// may stop halfway, so each index it builds must be CONCURRENTLY IF NOT
// EXISTS; anything else is refused when migrations load, naming the fix.
func TestNoTransactionMigrationsMustRepeat(t *testing.T) {
	for sql, ok := range map[string]bool{
		noTxMarker + "\n-- c\nCREATE INDEX CONCURRENTLY IF NOT EXISTS a ON events (id);\ncreate unique index concurrently if not exists b\n  ON events (id);\n": true,
		noTxMarker + "\nCREATE INDEX a ON events (id);\n":                      false,
		noTxMarker + "\nCREATE INDEX CONCURRENTLY a ON events (id);\n":         false,
		"CREATE INDEX a ON events (id);\n":                                     true, // in a transaction: as before
		noTxMarker + "\nCREATE UNIQUE INDEX IF NOT EXISTS a ON events (id);\n": false,
	} {
		m := migration{name: "x.sql", sql: sql, noTx: strings.HasPrefix(sql, noTxMarker+"\n")}
		if err := m.check(); (err == nil) != ok {
			t.Errorf("%q: check = %v; want ok %v", sql, err, ok)
		} else if err != nil && !strings.Contains(err.Error(), "CREATE INDEX CONCURRENTLY IF NOT EXISTS NAME") {
			t.Errorf("%q: %v does not name the fix", sql, err)
		}
	}
	if got := statements(noTxMarker + "\n-- c\nA\n  b;\nC;\n"); len(got) != 2 || got[0] != "A\n  b;" || got[1] != "C;" {
		t.Errorf("statements = %q", got)
	}
}
