package postgres

import (
	"context"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/store"
)

// filterRows is how many events fillFilterEvents writes: enough that a
// sequential scan is clearly the slower plan once the table is analyzed.
const filterRows = 60000

// fillFilterEvents writes filterRows events in one statement: mostly
// PreToolUse/Bash/allow, with a rare tool (WebFetch, 1 in 500), a rare
// decision (deny, 1 in 400) and a rare event (SessionStart, 1 in 1000),
// in mixed case as Claude Code and rules spell them; then ANALYZE, as
// autovacuum would on a real pool's table.
func fillFilterEvents(t testing.TB, st *Store) {
	t.Helper()
	ctx := context.Background()
	_, err := st.pool.Exec(ctx, `INSERT INTO events (id, ts_us, session_id, event, tool, decision)
		SELECT g, 1700000000000000 + g*1000, 'sess-' || (g % 50),
			CASE WHEN g % 1000 = 0 THEN 'SessionStart' ELSE 'PreToolUse' END,
			CASE WHEN g % 500 = 0 THEN 'WebFetch' ELSE 'Bash' END,
			CASE WHEN g % 400 = 0 THEN 'deny' ELSE 'allow' END
		FROM generate_series(1, $1::bigint) g`, filterRows)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.pool.Exec(ctx, "ANALYZE events"); err != nil {
		t.Fatal(err)
	}
}

// explain is PostgreSQL's plan for SearchEvents' own statement.
func explain(t testing.TB, st *Store, eq store.EventQuery) string {
	t.Helper()
	q, p, _ := searchQuery(eq)
	rows, err := st.pool.Query(context.Background(), "EXPLAIN "+q, p...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var l string
		if err := rows.Scan(&l); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}

// The case-insensitive filters of the dashboard and /api/events read
// their index (migration 0065), never the whole table: for a rare value
// in any spelling, the newest page and a stream's poll after an id.
func TestEventFiltersUseTheirIndex(t *testing.T) {
	st := open(t)
	fillFilterEvents(t, st)
	for _, c := range []struct {
		index string
		q     store.EventQuery
	}{
		{"events_tool_fold", store.EventQuery{Tool: "webfetch", Limit: 300}},
		{"events_tool_fold", store.EventQuery{Tool: "WEBFETCH", AfterID: 100, Limit: 500}},
		{"events_decision_fold", store.EventQuery{Decision: "Deny", Limit: 300}},
		{"events_event_fold", store.EventQuery{Event: "sessionstart", Limit: 300}},
	} {
		plan := explain(t, st, c.q)
		if !strings.Contains(plan, c.index) || strings.Contains(plan, "Seq Scan") {
			t.Errorf("%+v: plan does not use %s:\n%s", c.q, c.index, plan)
		}
	}
	// The folded comparison still finds every spelling, and only it.
	got, err := st.SearchEvents(context.Background(), store.EventQuery{Tool: "wEbFeTcH", Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != filterRows/500 {
		t.Fatalf("found %d WebFetch events, want %d", len(got), filterRows/500)
	}
	for _, e := range got {
		if e.Tool != "WebFetch" {
			t.Fatalf("event %d has tool %q", e.ID, e.Tool)
		}
	}
}

// BenchmarkEventFilter reads the newest page of a rare tool with the
// index and, on the same data in the same run, without it (the
// baseline): scripts compare the two.
func BenchmarkEventFilter(b *testing.B) {
	ctx := context.Background()
	st := open(b)
	fillFilterEvents(b, st)
	q := store.EventQuery{Tool: "webfetch", Limit: 50}
	run := func(b *testing.B) {
		for b.Loop() {
			if _, err := st.SearchEvents(ctx, q); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("indexed", run)
	for _, ix := range []string{"events_event_fold", "events_tool_fold", "events_decision_fold"} {
		if _, err := st.pool.Exec(ctx, "DROP INDEX "+ix); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := st.pool.Exec(ctx, "ANALYZE events"); err != nil {
		b.Fatal(err)
	}
	b.Run("no-index", run)
}
