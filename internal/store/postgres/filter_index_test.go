package postgres

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// filterRows is how many events fillFilterEvents writes: enough that a
// sequential scan is clearly the slower plan once the table is analyzed.
const filterRows = 60000

// fillFilterEvents writes filterRows events in one statement: mostly
// PreToolUse/Bash/allow, with a rare tool (WebFetch, 1 in 500), a rare
// decision (deny, 1 in 400) and a rare event (SessionStart, 1 in 1000),
// in mixed case as Claude Code and rules spell them, and rare sessions
// (ids starting "rare", 1 in 2000); then ANALYZE, as
// autovacuum would on a real pool's table.
func fillFilterEvents(t testing.TB, st *Store) {
	t.Helper()
	ctx := context.Background()
	_, err := st.pool.Exec(ctx, `INSERT INTO events (id, ts_us, session_id, event, tool, decision)
		SELECT g, 1700000000000000 + g*1000,
			CASE WHEN g % 2000 = 7 THEN 'rare' || g ELSE 'sess-' || (g % 50) END,
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

// openCollated opens a store on a fresh database whose collation is
// collation, not the test server's C: what most production servers have
// (en_US.UTF-8, C.UTF-8), and where a plain btree cannot serve a prefix.
func openCollated(t testing.TB, collation string) *Store {
	t.Helper()
	ctx := context.Background()
	base := open(t)
	name := fmt.Sprintf("warden_coll_%d", time.Now().UnixNano())
	if _, err := base.pool.Exec(ctx, fmt.Sprintf("CREATE DATABASE %s LC_COLLATE '%s' LC_CTYPE '%s' TEMPLATE template0", name, collation, collation)); err != nil {
		t.Fatalf("create a %s database (the locale comes with libc): %v", collation, err)
	}
	t.Cleanup(func() { base.pool.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)") })
	cfg := base.pool.Config().ConnConfig
	u := url.URL{Scheme: "postgres", User: url.User(cfg.User), Host: net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port))), Path: "/" + name, RawQuery: "sslmode=disable"}
	st, err := Open(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
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

// The filters of the dashboard and /api/events read their index
// (migration 0065), never the whole table, in a database whose collation
// is not C: the case-insensitive ones for a rare value in any spelling,
// the newest page and a stream's poll after an id, and the session prefix.
func TestEventFiltersUseTheirIndex(t *testing.T) {
	st := openCollated(t, "C.UTF-8")
	fillFilterEvents(t, st)
	for _, c := range []struct {
		index string
		q     store.EventQuery
	}{
		{"events_tool_fold", store.EventQuery{Tool: "webfetch", Limit: 300}},
		{"events_tool_fold", store.EventQuery{Tool: "WEBFETCH", AfterID: 100, Limit: 500}},
		{"events_decision_fold", store.EventQuery{Decision: "Deny", Limit: 300}},
		{"events_event_fold", store.EventQuery{Event: "sessionstart", Limit: 300}},
		{"events_session_prefix", store.EventQuery{SessionPrefix: "rare", Limit: 300}},
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

// BenchmarkEventFilter reads the newest page of a rare tool and of a rare
// session prefix with the indexes and, on the same data in the same run,
// without them (the baseline), in a C.UTF-8 database: compare the pairs.
func BenchmarkEventFilter(b *testing.B) {
	ctx := context.Background()
	st := openCollated(b, "C.UTF-8")
	fillFilterEvents(b, st)
	queries := []struct {
		name string
		q    store.EventQuery
	}{
		{"tool", store.EventQuery{Tool: "webfetch", Limit: 50}},
		{"session", store.EventQuery{SessionPrefix: "rare", Limit: 50}},
	}
	run := func(b *testing.B, q store.EventQuery) {
		for b.Loop() {
			if _, err := st.SearchEvents(ctx, q); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, c := range queries {
		b.Run(c.name+"/indexed", func(b *testing.B) { run(b, c.q) })
	}
	for _, ix := range []string{"events_event_fold", "events_tool_fold", "events_decision_fold", "events_session_prefix"} {
		if _, err := st.pool.Exec(ctx, "DROP INDEX "+ix); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := st.pool.Exec(ctx, "ANALYZE events"); err != nil {
		b.Fatal(err)
	}
	for _, c := range queries {
		b.Run(c.name+"/no-index", func(b *testing.B) { run(b, c.q) })
	}
}
