package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// BenchActivity times the dashboard's read models (store.ActivityReader)
// on a record a pool's dashboard might read: 40 sessions × 250 events over
// the last 4 hours, each session with 5 subagents, a block every 10th
// event and the call running anyway right after it. Both stores' tests
// call it, so their figures compare in one run.
func BenchActivity(b *testing.B, back SharedBackend) {
	st := back.fresh(b)
	// Seeded with the shipper's batch insert (store.Importer): 10,000 rows
	// one transaction each would take longer than the benchmark.
	imp := st
	now := time.Now().UTC()
	var batch []store.Event
	var id int64
	for s := range 40 {
		sess := fmt.Sprintf("sess-%02d", s)
		for i := range 250 {
			id++
			e := store.Event{ID: id, Time: now.Add(-4*time.Hour + time.Duration(s*250+i)*time.Second), SessionID: sess,
				Event: "PreToolUse", Tool: "Bash", ToolUseID: fmt.Sprintf("u%d", id), AgentID: fmt.Sprintf("agent-%d", i%5)}
			switch {
			case i%10 == 0:
				e.Decision, e.Rule, e.Mode = "ask", fmt.Sprintf("rule.%d", s%7), "ask"
			case i%10 == 1:
				e.Event, e.ToolUseID = "PostToolUse", fmt.Sprintf("u%d", id-1)
			}
			batch = append(batch, e)
			if len(batch) == 500 {
				if _, err := imp.ImportEvents(ctx, "bench", batch); err != nil {
					b.Fatal(err)
				}
				batch = batch[:0]
			}
		}
	}
	since := now.Add(-24 * time.Hour)
	for _, c := range []struct {
		name string
		f    func() error
	}{
		{"SessionSummaries", func() error { _, err := st.SessionSummaries(ctx, since); return err }},
		{"RuleDecisionCounts", func() error { _, err := st.RuleDecisionCounts(ctx, since); return err }},
		{"Overrides", func() error { _, err := st.Overrides(ctx, since, 5*time.Minute); return err }},
		{"SearchEventsNewest300", func() error {
			_, err := st.SearchEvents(ctx, store.EventQuery{Tool: "bash", Limit: 300})
			return err
		}},
		{"SearchEventsStreamPoll", func() error {
			_, err := st.SearchEvents(ctx, store.EventQuery{AfterID: id - 3, Limit: 500})
			return err
		}},
		{"Event", func() error { _, err := st.Event(ctx, id/2); return err }},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if err := c.f(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
