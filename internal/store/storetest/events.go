package storetest

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

func testEvents(t *testing.T, b LocalBackend) {
	st := b.fresh(t)
	base := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	dur, added, removed := int64(42), int64(3), int64(0)
	for i, ev := range []store.Event{
		{Time: base, SessionID: "a", Event: "PreToolUse", Tool: "Bash", Decision: "deny", Rule: "r1", Reason: "no"},
		{Time: base.Add(time.Minute + 1500*time.Nanosecond), SessionID: "a", Event: "PostToolUse", Tool: "Write", DurationMS: &dur,
			Path: "/p/f", HashBefore: "h0", HashAfter: "h1", LinesAdded: &added, LinesRemoved: &removed, TaskID: "t1", Detail: "d"},
		{Time: base.Add(2 * time.Minute), SessionID: "b", Event: "Stop", Raw: []byte(`{"x":1}`), SleptMS: 7, LatencyUS: 9},
	} {
		if err := st.RecordHook(ctx, &ev, &store.Session{ID: ev.SessionID, State: []byte(`{"tool_count":1}`)}); err != nil {
			t.Fatal(err)
		}
		if ev.ID != int64(i+1) || ev.Hash == "" {
			t.Errorf("id %d hash %q, want id %d and a hash", ev.ID, ev.Hash, i+1)
		}
	}
	all, err := st.Events(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 3 || all[0].Decision != "deny" || all[1].Decision != "allow" || all[1].Harness != "claude" {
		t.Fatalf("events: %+v", all)
	}
	e := all[1]
	if e.DurationMS == nil || *e.DurationMS != 42 || e.LinesAdded == nil || *e.LinesAdded != 3 || e.LinesRemoved == nil ||
		*e.LinesRemoved != 0 || e.HashAfter != "h1" || e.TaskID != "t1" || e.Detail != "d" {
		t.Errorf("file event round trip: %+v", e)
	}
	if !e.Time.Equal(base.Add(time.Minute+1*time.Microsecond)) || e.Time.Location() != time.UTC {
		t.Errorf("time %v: stored to the microsecond, in UTC", e.Time)
	}
	if string(all[2].Raw) != `{"x":1}` || all[2].SleptMS != 7 || all[2].LatencyUS != 9 || all[0].Raw != nil || all[0].DurationMS != nil {
		t.Errorf("round trip: %+v", all)
	}
	if !all[0].Time.Equal(base) {
		t.Errorf("time %v, want %v", all[0].Time, base)
	}
	for _, c := range []struct {
		f    store.Filter
		want string
	}{
		{store.Filter{SessionID: "a"}, "[1 2]"},
		{store.Filter{Event: "Stop"}, "[3]"},
		{store.Filter{TaskID: "t1"}, "[2]"},
		{store.Filter{Since: base.Add(30 * time.Second)}, "[2 3]"},
		{store.Filter{AfterID: 2}, "[3]"},
		{store.Filter{Limit: 2}, "[2 3]"}, // the newest, oldest first
		{store.Filter{SessionID: "a", Limit: 1}, "[2]"},
		{store.Filter{SessionID: "zz"}, "[]"},
	} {
		got, err := st.Events(ctx, c.f)
		if err != nil {
			t.Fatal(err)
		}
		if ids(got) != c.want {
			t.Errorf("Events(%+v) = %s, want %s", c.f, ids(got), c.want)
		}
	}
	counts, err := st.DecisionCounts(ctx, base)
	if err != nil || counts["deny"] != 1 || counts["allow"] != 2 {
		t.Errorf("counts %v %v", counts, err)
	}
	if counts, _ := st.DecisionCounts(ctx, base.Add(time.Hour)); len(counts) != 0 {
		t.Errorf("counts after the last event: %v", counts)
	}
}

func ids(evs []store.Event) string {
	out := make([]int64, len(evs))
	for i, e := range evs {
		out[i] = e.ID
	}
	return fmt.Sprint(out)
}

func testEventsPage(t *testing.T, b SharedBackend) {
	st := b.fresh(t)
	base := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	for i := range 7 {
		sess := []string{"a", "b"}[i%2]
		record(t, st, store.Event{Time: base.Add(time.Duration(i) * time.Minute), SessionID: sess, Event: "Stop"},
			&store.Session{ID: sess, Cwd: "/w/" + sess})
	}
	var seen []store.Event
	for after := int64(0); ; {
		page, err := st.EventsPage(ctx, after, "", time.Time{}, 3)
		if err != nil {
			t.Fatal(err)
		}
		if page == nil {
			t.Fatal("EventsPage returns an empty list, not nil")
		}
		if len(page) == 0 {
			break
		}
		seen = append(seen, page...)
		after = page[len(page)-1].ID
	}
	if ids(seen) != "[1 2 3 4 5 6 7]" {
		t.Errorf("paged %s", ids(seen))
	}
	if got, _ := st.EventsPage(ctx, 1, "a", base.Add(3*time.Minute), 10); ids(got) != "[5 7]" {
		t.Errorf("session a since 3m after 1: %s", ids(got))
	}
	ss, err := st.SessionsPage(ctx, 10)
	if err != nil || len(ss) != 2 {
		t.Fatalf("sessions %+v %v", ss, err)
	}
	if ss[0].Cwd == "" || ss[0].Started.IsZero() || ss[0].Updated.Before(ss[1].Updated) {
		t.Errorf("sessions newest first with cwd and times: %+v", ss)
	}
}

// seed records n events an hour apart from start.
func seed(t testing.TB, st Local, n int, start time.Time) {
	t.Helper()
	for i := 0; i < n; i++ {
		ev := &store.Event{Time: start.Add(time.Duration(i) * time.Hour), SessionID: "s", Event: "PreToolUse", Tool: "Bash", Reason: "r"}
		if err := st.RecordHook(ctx, ev, nil); err != nil {
			t.Fatal(err)
		}
	}
}

func testChainBreaks(t *testing.T, b LocalBackend) {
	start := time.Now().Add(-10 * time.Hour)
	tests := []struct {
		name    string
		tamper  string
		breakAt int64
		reason  string
	}{
		{"intact", "", 0, ""},
		{"row deleted", "DELETE FROM events WHERE id = 4", 5, "missing"},
		{"row changed", "UPDATE events SET decision = 'allow', reason = '' WHERE id = 3", 3, "changed"},
		{"row relinked", "UPDATE events SET prev_hash = 'x' WHERE id = 6", 6, "link"},
		{"row deleted and re-added", "DELETE FROM events WHERE id = 2; INSERT INTO events(id, ts_us, event, prev_hash, hash) VALUES (2, 0, 'Stop', '', '')", 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := b.fresh(t)
			seed(t, st, 8, start)
			if tt.tamper != "" {
				b.Exec(t, st, tt.tamper)
			}
			n, brk, err := st.VerifyChain(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if tt.breakAt == 0 {
				if brk != nil || n != 8 {
					t.Fatalf("intact chain: %d rows, break %+v", n, brk)
				}
				return
			}
			if brk == nil || brk.ID != tt.breakAt || !strings.Contains(brk.Reason, tt.reason) {
				t.Fatalf("want a break at %d (%s), got %+v", tt.breakAt, tt.reason, brk)
			}
		})
	}
}

// Writers on two handles (two processes, two workers) append side by
// side: one unbroken chain, ids 1..n in insert order, no row lost.
func testChainConcurrentWriters(t *testing.T, b LocalBackend) {
	a, c := b.twin(t)
	const writers, each = 6, 25
	var wg sync.WaitGroup
	for w := range writers {
		st := []Local{a, c}[w%2]
		wg.Go(func() {
			for i := range each {
				ev := &store.Event{SessionID: fmt.Sprint("w", w), Event: "PostToolUse", Reason: fmt.Sprint(i)}
				if err := st.RecordHook(ctx, ev, &store.Session{ID: fmt.Sprint("w", w)}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	n, brk, err := a.VerifyChain(ctx)
	if err != nil || brk != nil || n != writers*each {
		t.Fatalf("after concurrent writes: %d rows (want %d), break %+v, %v", n, writers*each, brk, err)
	}
	// Each writer's own events are in its order.
	for w := range writers {
		evs, _ := c.Events(ctx, store.Filter{SessionID: fmt.Sprint("w", w)})
		for i, e := range evs {
			if e.Reason != fmt.Sprint(i) {
				t.Fatalf("writer %d: event %d has reason %q", w, i, e.Reason)
			}
		}
	}
}

func testChainSurvivesRetention(t *testing.T, b LocalBackend) {
	st := b.fresh(t)
	now := time.Now()
	seed(t, st, 5, now.Add(-100*24*time.Hour))
	seed(t, st, 3, now.Add(-time.Hour))
	st.SaveSession(ctx, &store.Session{ID: "s"})
	ne, _, err := st.Prune(ctx, now.AddDate(0, 0, -60))
	if err != nil || ne != 5 {
		t.Fatalf("pruned %d (%v)", ne, err)
	}
	n, brk, err := st.VerifyChain(ctx)
	if err != nil || brk != nil || n != 3 {
		t.Fatalf("after retention: %d rows, %+v, %v", n, brk, err)
	}
	if a, ok, _ := st.Setting(ctx, store.SettingChainAnchor); !ok || !strings.HasPrefix(a, "5 ") {
		t.Errorf("anchor %q, want row 5's", a)
	}
	// New rows keep chaining from the tip, ids keep growing.
	seed(t, st, 1, now)
	evs, _ := st.Events(ctx, store.Filter{})
	if evs[len(evs)-1].ID != 9 {
		t.Errorf("id after retention = %d, want 9", evs[len(evs)-1].ID)
	}
	if _, brk, _ := st.VerifyChain(ctx); brk != nil {
		t.Errorf("break after new row: %+v", brk)
	}
	// Deleting the oldest remaining row is still caught via the anchor.
	b.Exec(t, st, "DELETE FROM events WHERE id = 6")
	if _, brk, _ := st.VerifyChain(ctx); brk == nil || brk.ID != 7 {
		t.Errorf("deleting the first row after the anchor: %+v", brk)
	}
}

func testPruneEverythingKeepsTheAnchor(t *testing.T, b LocalBackend) {
	st := b.fresh(t)
	seed(t, st, 3, time.Now().AddDate(0, 0, -90))
	st.SaveSession(ctx, &store.Session{ID: "old"})
	b.Exec(t, st, "UPDATE sessions SET updated_us = 0 WHERE id = 'old'")
	ne, ns, err := st.Prune(ctx, time.Now().AddDate(0, 0, -60))
	if err != nil || ne != 3 || ns != 1 {
		t.Fatalf("pruned %d events, %d sessions (%v), want 3 and 1", ne, ns, err)
	}
	if s, _ := st.Session(ctx, "old"); s != nil {
		t.Error("an old session survived Prune")
	}
	seed(t, st, 2, time.Now())
	evs, _ := st.Events(ctx, store.Filter{})
	if len(evs) != 2 || evs[0].ID != 4 {
		t.Fatalf("rows after full prune: %+v", evs)
	}
	if _, brk, _ := st.VerifyChain(ctx); brk != nil {
		t.Errorf("break: %+v", brk)
	}
}
