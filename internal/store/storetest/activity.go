package storetest

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// The dashboard's read models (store.ActivityReader): the figures the
// pages show must be the same whichever store the daemon reads.

// record saves e (and sess, when not nil) in a shared store the way
// events reach one, shipped (store.Importer), and returns its id there.
// The suite's stores start empty and only record writes events to them,
// so the id is the count of events recorded.
func record(t testing.TB, st Shared, e store.Event, sess *store.Session) int64 {
	t.Helper()
	if e.Time.IsZero() {
		e.Time = time.Now() // as a hook's record would be
	}
	n, _ := recorded.LoadOrStore(st, new(atomic.Int64))
	e.ID = n.(*atomic.Int64).Add(1) // the origin's id: its local store's
	if got, err := st.ImportEvents(ctx, "storetest", []store.Event{e}); err != nil || got != 1 {
		t.Fatalf("import %+v: %d rows, %v", e, got, err)
	}
	if sess != nil {
		ss := *sess
		if ss.Started.IsZero() {
			ss.Started = e.Time
		}
		if ss.Updated.IsZero() {
			ss.Updated = e.Time
		}
		if err := st.ImportSessions(ctx, []store.Session{ss}); err != nil {
			t.Fatal(err)
		}
	}
	return e.ID
}

// recorded counts the events record imported, per store.
var recorded sync.Map

func testSessionSummaries(t *testing.T, b SharedBackend) {
	st := b.fresh(t)
	base := time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC)
	at := func(d time.Duration) time.Time { return base.Add(d) }
	// s1: a session row with its own directory, two subagents (one
	// stopped).
	s1 := &store.Session{ID: "s1", Cwd: "/proj/one"}
	record(t, st, store.Event{Time: at(0), SessionID: "s1", Event: "SessionStart", Cwd: "/ev/one"}, s1)
	record(t, st, store.Event{Time: at(time.Minute), SessionID: "s1", Event: "PreToolUse", AgentID: "a1"}, nil)
	record(t, st, store.Event{Time: at(2 * time.Minute), SessionID: "s1", Event: "SubagentStop", AgentID: "a1"}, nil)
	record(t, st, store.Event{Time: at(3 * time.Minute), SessionID: "s1", Event: "PreToolUse", AgentID: "a2"}, nil)
	record(t, st, store.Event{Time: at(4 * time.Minute), SessionID: "s1", Event: "Stop", Cwd: "/ev/one-later"}, nil)
	// s2: no session row: the directory is its newest event's.
	record(t, st, store.Event{Time: at(5 * time.Minute), SessionID: "s2", Event: "PreToolUse", Cwd: "/ev/two-old"}, nil)
	record(t, st, store.Event{Time: at(6 * time.Minute), SessionID: "s2", Event: "Notification", Cwd: "/ev/two"}, nil)
	// s3: 25 subagents; only the newest 20 are listed.
	for i := range 25 {
		record(t, st, store.Event{Time: at(10*time.Minute + time.Duration(i)*time.Second), SessionID: "s3",
			Event: "PreToolUse", AgentID: fmt.Sprintf("g%02d", i)}, nil)
	}
	// Outside the window, and events without a session: never listed.
	record(t, st, store.Event{Time: at(-2 * time.Hour), SessionID: "old", Event: "Stop"}, nil)
	record(t, st, store.Event{Time: at(time.Minute), Event: "Notification"}, nil)

	sums := summaries(t, st, at(-time.Minute))
	if got := sessionIDs(sums); got != "[s1 s2 s3]" {
		t.Fatalf("sessions %s, want [s1 s2 s3]", got)
	}
	s := sums[0]
	if s.Events != 5 || !s.Started.Equal(at(0)) || !s.Updated.Equal(at(4*time.Minute)) || s.Cwd != "/proj/one" || s.LastEvent != "Stop" {
		t.Errorf("s1 = %+v", s)
	}
	if got := agents(s.Subagents); got != "a2@09:03:00 a1@09:02:00(stopped)" {
		t.Errorf("s1 subagents %s, want a2 running then a1 stopped", got)
	}
	if s := sums[1]; s.Events != 2 || s.Cwd != "/ev/two" || s.LastEvent != "Notification" || len(s.Subagents) != 0 {
		t.Errorf("s2 = %+v", s)
	}
	s = sums[2]
	if s.Events != 25 || len(s.Subagents) != 20 || s.Subagents[0].ID != "g24" || s.Subagents[19].ID != "g05" {
		t.Errorf("s3: %d events, subagents %s; want 25 and g24…g05", s.Events, agents(s.Subagents))
	}
	// A later window: s1's one Stop, none of its subagents' events.
	sums = summaries(t, st, at(3*time.Minute+30*time.Second))
	if got := sessionIDs(sums); got != "[s1 s2 s3]" {
		t.Fatalf("later window: sessions %s", got)
	}
	if s := sums[0]; s.Events != 1 || !s.Started.Equal(at(4*time.Minute)) || !s.Updated.Equal(s.Started) || len(s.Subagents) != 0 {
		t.Errorf("s1 in the later window = %+v", s)
	}
	if sums := summaries(t, st, at(time.Hour)); len(sums) != 0 {
		t.Errorf("after the last event: %+v", sums)
	}
}

func summaries(t *testing.T, st Shared, since time.Time) []store.SessionSummary {
	t.Helper()
	sums, err := st.SessionSummaries(ctx, since)
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(sums, func(i, j int) bool { return sums[i].ID < sums[j].ID })
	return sums
}

func sessionIDs(sums []store.SessionSummary) string {
	var out []string
	for _, s := range sums {
		out = append(out, s.ID)
	}
	return fmt.Sprint(out)
}

func agents(as []store.SubagentSummary) string {
	var out []string
	for _, a := range as {
		s := a.ID + "@" + a.Updated.Format("15:04:05")
		if a.Stopped {
			s += "(stopped)"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func testRuleDecisionCounts(t *testing.T, b SharedBackend) {
	st := b.fresh(t)
	base := time.Date(2026, 11, 4, 9, 0, 0, 0, time.UTC)
	rec := func(d time.Duration, rule, decision, mode string) {
		record(t, st, store.Event{Time: base.Add(d), SessionID: "s", Event: "PreToolUse", Rule: rule, Decision: decision, Mode: mode}, nil)
	}
	rec(0, "r1", "deny", "deny")
	rec(time.Minute, "r1", "deny", "deny")
	rec(2*time.Minute, "r1", "warn", "warn")
	rec(3*time.Minute, "r2", "ask", "ask")
	rec(4*time.Minute, "r3", "warn", "audit")
	rec(5*time.Minute, "r3", "warn", "warn") // the highest mode is reported
	rec(time.Minute, "", "deny", "deny")     // no rule: not counted
	rec(-time.Hour, "r1", "deny", "deny")    // before the window

	got := ruleCounts(t, st, base)
	want := "r1/deny=2 (deny, 09:01) r1/warn=1 (warn, 09:02) r2/ask=1 (ask, 09:03) r3/warn=2 (warn, 09:05)"
	if got != want {
		t.Errorf("counts since 09:00:\n got %s\nwant %s", got, want)
	}
	if got, want := ruleCounts(t, st, base.Add(90*time.Second)), "r1/warn=1 (warn, 09:02) r2/ask=1 (ask, 09:03) r3/warn=2 (warn, 09:05)"; got != want {
		t.Errorf("counts since 09:01:30:\n got %s\nwant %s", got, want)
	}
	if got := ruleCounts(t, st, base.Add(time.Hour)); got != "" {
		t.Errorf("after the last event: %s", got)
	}
}

func ruleCounts(t *testing.T, st Shared, since time.Time) string {
	t.Helper()
	rs, err := st.RuleDecisionCounts(ctx, since)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%s/%s=%d (%s, %s)", r.Rule, r.Decision, r.Count, r.Mode, r.Last.UTC().Format("15:04")))
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

func testOverrides(t *testing.T, b SharedBackend) {
	st := b.fresh(t)
	base := time.Date(2026, 11, 5, 12, 0, 0, 0, time.UTC)
	const within = 5 * time.Minute
	rec := func(ago time.Duration, e store.Event) int64 {
		e.Time = base.Add(-ago)
		return record(t, st, e, nil)
	}
	block := func(ago time.Duration, event, sess, dec, rule, tool, tu, path string) int64 {
		return rec(ago, store.Event{SessionID: sess, Event: event, Tool: tool, ToolUseID: tu, Path: path, Decision: dec, Rule: rule, Mode: dec})
	}
	ran := func(ago time.Duration, sess, tool, tu, path string) int64 {
		return rec(ago, store.Event{SessionID: sess, Event: "PostToolUse", Tool: tool, ToolUseID: tu, Path: path})
	}
	type pair struct{ block, followed int64 }
	var want []pair
	b1 := block(60*time.Minute, "PreToolUse", "s1", "ask", "r.ask", "Bash", "t1", "")
	want = append(want, pair{b1, ran(59*time.Minute, "s1", "Bash", "t1", "")}) // approved
	ran(58*time.Minute, "s1", "Bash", "t1", "")                                // a second follow-up: the first counts
	b2 := block(50*time.Minute, "PreToolUse", "s1", "deny", "r.deny", "Write", "t2", "/p/a")
	want = append(want, pair{b2, ran(48*time.Minute, "s1", "Write", "t3", "/p/a")}) // same file, another call
	b3 := block(45*time.Minute, "PermissionRequest", "s2", "deny", "r.perm", "Edit", "t9", "")
	want = append(want, pair{b3, ran(44*time.Minute, "s2", "Edit", "t9", "")})
	block(40*time.Minute, "PreToolUse", "s1", "deny", "r.deny", "Write", "t4", "/p/b")
	ran(30*time.Minute, "s1", "Write", "t5", "/p/b") // too late
	block(20*time.Minute, "PreToolUse", "s1", "deny", "r.deny", "Bash", "t6", "")
	ran(19*time.Minute, "s2", "Bash", "t6", "") // another session
	block(15*time.Minute, "PreToolUse", "s1", "ask", "r.ask", "Edit", "t7", "/p/c")
	ran(14*time.Minute, "s1", "Write", "t8", "/p/c") // another tool
	block(12*time.Minute, "PreToolUse", "s1", "deny", "", "Bash", "t10", "")
	ran(11*time.Minute, "s1", "Bash", "t10", "") // no rule: not a rule's block
	block(10*time.Minute, "PreToolUse", "s1", "warn", "r.warn", "Bash", "t11", "")
	ran(9*time.Minute, "s1", "Bash", "t11", "") // a warning blocks nothing
	block(8*time.Minute, "PostToolUse", "s1", "deny", "r.post", "Bash", "t12", "")
	ran(7*time.Minute, "s1", "Bash", "t12", "") // not a block before the call
	block(90*time.Hour, "PreToolUse", "s1", "deny", "r.deny", "Bash", "t0", "")
	ran(90*time.Hour-time.Minute, "s1", "Bash", "t0", "") // before the window

	over, err := st.Overrides(ctx, base.Add(-24*time.Hour), within)
	if err != nil {
		t.Fatal(err)
	}
	var got []pair
	for _, o := range over {
		got = append(got, pair{o.Block.ID, o.Followed.ID})
		if o.Block.Rule == "" || o.Followed.Event != "PostToolUse" || o.Block.SessionID != o.Followed.SessionID {
			t.Errorf("override rows not read back whole: %+v", o)
		}
	}
	sort.Slice(want, func(i, j int) bool { return want[i].block > want[j].block }) // newest block first
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("overrides %v, want %v", got, want)
	}
	// A narrower window leaves out the block followed after 2 minutes.
	over, err = st.Overrides(ctx, base.Add(-24*time.Hour), 90*time.Second)
	if err != nil || len(over) != 2 || over[0].Block.ID != b3 || over[1].Block.ID != b1 {
		t.Errorf("90 s window: %+v %v, want blocks %d and %d", over, err, b3, b1)
	}
	if over, err := st.Overrides(ctx, base, within); err != nil || len(over) != 0 {
		t.Errorf("since the last event: %+v %v", over, err)
	}

	// At most 200, the newest.
	st2 := b.fresh(t)
	var blocks []int64
	for i := range 201 {
		at := base.Add(time.Duration(i) * time.Second)
		id := record(t, st2, store.Event{Time: at, SessionID: "s", Event: "PreToolUse", Tool: "Bash", ToolUseID: fmt.Sprint("u", i),
			Decision: "ask", Rule: "r", Mode: "ask"}, nil)
		record(t, st2, store.Event{Time: at, SessionID: "s", Event: "PostToolUse", Tool: "Bash", ToolUseID: fmt.Sprint("u", i)}, nil)
		blocks = append(blocks, id)
	}
	over, err = st2.Overrides(ctx, base.Add(-time.Hour), within)
	if err != nil {
		t.Fatal(err)
	}
	if len(over) != 200 || over[0].Block.ID != blocks[200] || over[199].Block.ID != blocks[1] {
		t.Errorf("%d overrides from %d to %d, want 200 from %d to %d", len(over), over[0].Block.ID, over[len(over)-1].Block.ID, blocks[200], blocks[1])
	}
}

func testSearchEvents(t *testing.T, b SharedBackend) {
	st := b.fresh(t)
	base := time.Date(2026, 11, 6, 9, 0, 0, 0, time.UTC)
	for i, e := range []store.Event{
		{SessionID: "abc123", Event: "PreToolUse", Tool: "Bash", Decision: "deny", Rule: "r"}, // 1
		{SessionID: "abc123", Event: "PostToolUse", Tool: "Bash"},                             // 2
		{SessionID: "abd999", Event: "PreToolUse", Tool: "Write", Decision: "ask", Rule: "r"}, // 3
		{SessionID: "xyz", Event: "Stop"},                                                     // 4
		{SessionID: "abc123", Event: "PreToolUse", Tool: "bash", Decision: "DENY", Rule: "r"}, // 5
		{SessionID: "xabc", Event: "PreToolUse", Tool: "Bash"},                                // 6
	} {
		e.Time = base.Add(time.Duration(i) * time.Minute)
		record(t, st, e, nil)
	}
	for _, c := range []struct {
		q    store.EventQuery
		want string
	}{
		{store.EventQuery{}, "[1 2 3 4 5 6]"},
		{store.EventQuery{Limit: 2}, "[5 6]"}, // the newest, oldest first
		{store.EventQuery{Limit: 100}, "[1 2 3 4 5 6]"},
		{store.EventQuery{AfterID: 2, Limit: 2}, "[3 4]"}, // the oldest after, for a stream
		{store.EventQuery{AfterID: 2}, "[3 4 5 6]"},
		{store.EventQuery{AfterID: 6}, "[]"},
		{store.EventQuery{AfterID: 600, Limit: 5}, "[]"},
		{store.EventQuery{SessionPrefix: "ab"}, "[1 2 3 5]"}, // a prefix, not a substring
		{store.EventQuery{SessionPrefix: "abc"}, "[1 2 5]"},
		{store.EventQuery{SessionPrefix: "abc123"}, "[1 2 5]"},
		{store.EventQuery{SessionPrefix: "abc1234"}, "[]"},
		{store.EventQuery{Tool: "BASH"}, "[1 2 5 6]"}, // case-insensitive
		{store.EventQuery{Decision: "deny"}, "[1 5]"},
		{store.EventQuery{Event: "pretooluse", Tool: "bash"}, "[1 5 6]"},
		{store.EventQuery{Event: "PreToolUse", Tool: "Bash", Decision: "Deny", SessionPrefix: "abc", AfterID: 1}, "[5]"},
		{store.EventQuery{Event: "PreToolUse", Limit: 2}, "[5 6]"},
		{store.EventQuery{Event: "PreToolUse", AfterID: 1, Limit: 2}, "[3 5]"},
		{store.EventQuery{Event: "Pre"}, "[]"}, // whole names only
		{store.EventQuery{Tool: "Bash%"}, "[]"},
	} {
		got, err := st.SearchEvents(ctx, c.q)
		if err != nil {
			t.Fatal(err)
		}
		if ids(got) != c.want {
			t.Errorf("SearchEvents(%+v) = %s, want %s", c.q, ids(got), c.want)
		}
	}
	e, err := st.Event(ctx, 3)
	if err != nil || e == nil || e.SessionID != "abd999" || e.Tool != "Write" || e.Decision != "ask" || !e.Time.Equal(base.Add(2*time.Minute)) || e.Hash == "" {
		t.Errorf("Event(3) = %+v, %v", e, err)
	}
	for _, id := range []int64{0, -1, 7, 1 << 40} {
		if e, err := st.Event(ctx, id); e != nil || err != nil {
			t.Errorf("Event(%d) = %+v, %v; want nil, nil", id, e, err)
		}
	}
}
