package storetest

import (
	"fmt"
	"math/rand"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/stats"
	"github.com/warden-dev/warden/internal/store"
)

// testStatsEqualDirectCounts records a random week of events and judge
// calls in a real store, then checks every figure of stats.Collect against
// counts made here from the rows themselves (Events, Judgements), for the
// whole record, a --since, a --project and a time zone that moves days.
func testStatsEqualDirectCounts(t *testing.T, b LocalBackend) {
	st := b.fresh(t)
	rng := rand.New(rand.NewSource(22))
	base := time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC)
	projects := []string{"/work/a", "/work/a/sub", "/work/ab", "/work/b"}
	rules := []string{"core.git:push-force", "gates:safemode", "core.paths:ssh", "judge:tool-approve"}
	tools := []string{"Bash", "Write", "Edit"}
	now := base
	for i := 0; i < 900; i++ {
		now = now.Add(time.Duration(rng.Intn(15*60)) * time.Second)
		sess := fmt.Sprintf("s%d", rng.Intn(6))
		cwd := projects[rng.Intn(len(projects))]
		tool := tools[rng.Intn(len(tools))]
		path := ""
		if tool != "Bash" {
			path = fmt.Sprintf("/f%d", rng.Intn(3))
		}
		id := fmt.Sprintf("toolu_%d", i)
		ev := &store.Event{Time: now, SessionID: sess, Event: "PreToolUse", Tool: tool, ToolUseID: id, Cwd: cwd, Path: path}
		switch k := rng.Intn(10); {
		case k < 3:
			ev.Decision, ev.Rule = "deny", rules[rng.Intn(len(rules))]
		case k < 5:
			ev.Decision, ev.Rule = "ask", rules[rng.Intn(len(rules))]
		case k == 5:
			ev.Event, ev.Decision, ev.Rule = "PostToolUseFailure", "warn", "gates:breaker"
		case k == 6:
			ev.Decision, ev.Rule = "deny", "judge:workaround"
		default:
			ev.Decision = "allow"
		}
		if err := st.RecordHook(ctx, ev, nil); err != nil {
			t.Fatal(err)
		}
		if ev.Decision == "deny" || ev.Decision == "ask" {
			// Sometimes the call (or the same tool on the same path) runs
			// afterwards, sometimes within the window, sometimes later.
			if rng.Intn(2) == 0 {
				later := now.Add(time.Duration(rng.Intn(20*60)) * time.Second)
				p := &store.Event{Time: later, SessionID: sess, Event: "PostToolUse", Tool: tool, Cwd: cwd, Path: path,
					ToolUseID: fmt.Sprintf("toolu_other_%d", i)}
				if ev.Decision == "ask" && rng.Intn(3) > 0 {
					p.ToolUseID = id
				}
				if rng.Intn(4) == 0 {
					p.SessionID = "elsewhere"
				}
				if err := st.RecordHook(ctx, p, nil); err != nil {
					t.Fatal(err)
				}
				if later.After(now) {
					now = later
				}
			}
		}
		if rng.Intn(4) == 0 {
			verdicts := []string{"pass", "fail", "open"}
			j := &store.Judgement{Time: now, SessionID: sess, Judge: []string{"tempo", "tool-approve", "loop"}[rng.Intn(3)],
				Provider: "anthropic", Verdict: verdicts[rng.Intn(3)], CostUSD: float64(rng.Intn(1000)) / 1e5}
			if err := st.RecordJudgementRow(ctx, j); err != nil {
				t.Fatal(err)
			}
		}
	}
	evs, err := st.Events(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	js, err := st.Judgements(ctx, store.JudgementFilter{Limit: 100000})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) < 900 || len(js) < 100 {
		t.Fatalf("workload too small: %d events, %d judgements", len(evs), len(js))
	}
	for _, q := range []stats.Query{
		{},
		{Since: base.Add(60 * time.Hour)},
		{Project: "/work/a"},
		{TZOffset: 5*3600 + 1800, OverrideWindow: 3 * time.Minute},
		{Since: base.Add(30 * time.Hour), Project: "/work/b", TZOffset: -8 * 3600},
	} {
		t.Run(fmt.Sprintf("since=%s,project=%s,tz=%d", q.Since.Format("02T15"), q.Project, q.TZOffset), func(t *testing.T) {
			got, err := stats.Collect(ctx, st, q)
			if err != nil {
				t.Fatal(err)
			}
			want := directStats(evs, js, q)
			if !reflect.DeepEqual(got.BlocksByDay, want.blocks) {
				t.Errorf("blocks per day and rule differ:\n got %v\nwant %v", got.BlocksByDay, want.blocks)
			}
			if !reflect.DeepEqual(got.BreakerTrips, want.trips) || !reflect.DeepEqual(got.LoopsCaught, want.loops) {
				t.Errorf("trips %v / loops %v, want %v / %v", got.BreakerTrips, got.LoopsCaught, want.trips, want.loops)
			}
			if len(got.Judges) != len(want.judges) {
				t.Fatalf("judges: %d rows, want %d", len(got.Judges), len(want.judges))
			}
			for i := range got.Judges {
				g, w := got.Judges[i], want.judges[i]
				if g.Day != w.Day || g.Judge != w.Judge || g.Verdict != w.Verdict || g.N != w.N || abs(g.CostUSD-w.CostUSD) > 1e-9 {
					t.Errorf("judges[%d] = %+v, want %+v", i, g, w)
				}
			}
			if got.Totals.Overridden == 0 || got.Totals.Denied == 0 {
				t.Errorf("the workload should produce overrides and denials: %+v", got.Totals)
			}
		})
	}
}

type direct struct {
	blocks []stats.RuleDay
	trips  []stats.DayCount
	loops  []stats.DayCount
	judges []stats.JudgeDay
}

// directStats applies the definitions of package stats to the rows.
func directStats(evs []store.Event, js []store.Judgement, q stats.Query) direct {
	window := q.OverrideWindow
	if window <= 0 {
		window = stats.DefaultOverrideWindow
	}
	day := func(t time.Time) string {
		return t.UTC().Add(time.Duration(q.TZOffset) * time.Second).Format("2006-01-02")
	}
	inProject := func(cwd string) bool {
		return q.Project == "" || cwd == q.Project || strings.HasPrefix(cwd, q.Project+"/")
	}
	in := func(e store.Event) bool { return !e.Time.Before(q.Since) && inProject(e.Cwd) }
	blocks := map[[2]string]*stats.RuleDay{}
	trips, loops := map[string]int{}, map[string]int{}
	sessions := map[string]bool{}
	for i, e := range evs {
		if inProject(e.Cwd) {
			sessions[e.SessionID] = true
		}
		if !in(e) {
			continue
		}
		switch {
		case e.Decision == "deny" || e.Decision == "ask":
			k := [2]string{day(e.Time), e.Rule}
			if blocks[k] == nil {
				blocks[k] = &stats.RuleDay{Day: k[0], Rule: k[1]}
			}
			b := blocks[k]
			if e.Decision == "deny" {
				b.Denied++
			} else {
				b.Asked++
			}
			for _, p := range evs[i+1:] {
				if p.SessionID != e.SessionID || p.Event != "PostToolUse" || p.Time.Sub(e.Time) > window {
					continue
				}
				if (e.Decision == "ask" && e.ToolUseID != "" && p.ToolUseID == e.ToolUseID) ||
					(e.Decision == "deny" && e.Path != "" && p.Tool == e.Tool && p.Path == e.Path) {
					b.Overridden++
					break
				}
			}
		}
		if e.Rule == "gates:breaker" && e.Decision == "warn" {
			trips[day(e.Time)]++
		}
		if e.Rule == "judge:workaround" {
			loops[day(e.Time)]++
		}
	}
	var d direct
	for _, b := range blocks {
		d.blocks = append(d.blocks, *b)
	}
	sort.Slice(d.blocks, func(i, j int) bool {
		if d.blocks[i].Day != d.blocks[j].Day {
			return d.blocks[i].Day < d.blocks[j].Day
		}
		return d.blocks[i].Rule < d.blocks[j].Rule
	})
	d.trips, d.loops = dayCounts(trips), dayCounts(loops)
	jm := map[[3]string]*stats.JudgeDay{}
	for _, j := range js {
		if j.Time.Before(q.Since) || (q.Project != "" && !sessions[j.SessionID]) {
			continue
		}
		k := [3]string{day(j.Time), j.Judge, j.Verdict}
		if jm[k] == nil {
			jm[k] = &stats.JudgeDay{Day: k[0], Judge: k[1], Verdict: k[2]}
		}
		jm[k].N++
		jm[k].CostUSD += j.CostUSD
	}
	for _, j := range jm {
		d.judges = append(d.judges, *j)
	}
	sort.Slice(d.judges, func(i, j int) bool {
		a, b := d.judges[i], d.judges[j]
		if a.Day != b.Day {
			return a.Day < b.Day
		}
		if a.Judge != b.Judge {
			return a.Judge < b.Judge
		}
		return a.Verdict < b.Verdict
	})
	return d
}

func dayCounts(m map[string]int) []stats.DayCount {
	var out []stats.DayCount
	for d, n := range m {
		out = append(out, stats.DayCount{Day: d, N: n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Day < out[j].Day })
	return out
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}
