package estimate_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/pace/estimate"
	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/usage"
)

var now = time.Date(2026, 11, 24, 14, 30, 0, 0, time.UTC) // a Tuesday

func ms(t time.Time) int64 { return t.UnixMilli() }

// block is a completed or active block starting at h hours before now.
func block(start time.Time, last time.Duration, cost float64, tokens int64) usage.BlockAgg {
	return usage.BlockAgg{Start: ms(start), End: ms(start.Add(5 * time.Hour)), First: ms(start), ActualEnd: ms(start.Add(last)),
		Entries: 1, In: tokens, Cost: cost}
}

func TestFromBlocks(t *testing.T) {
	curStart := time.Date(2026, 11, 24, 13, 0, 0, 0, time.UTC) // active: ends 18:00
	cur := block(curStart, 80*time.Minute, 12, 1000)
	day := func(d int) time.Time { return curStart.AddDate(0, 0, -d) }
	past := []usage.BlockAgg{block(day(3), 4*time.Hour, 20, 9000), block(day(2), 4*time.Hour, 40, 5000), block(day(1), 2*time.Hour, 30, 9500)}
	old := block(day(40), time.Hour, 400, 1) // outside the 30 days: ignored
	gap := usage.BlockAgg{Start: ms(day(1).Add(7 * time.Hour)), End: ms(curStart), Gap: true}
	hit := block(day(2), 4*time.Hour, 40, 5000)
	hit.Reset = day(2).Add(5 * time.Hour).Unix()
	curHit := cur
	curHit.Reset = time.Date(2026, 11, 24, 17, 0, 0, 0, time.UTC).Unix()
	unpriced := func(b usage.BlockAgg) usage.BlockAgg { b.Cost = 0; return b }

	for _, tt := range []struct {
		name      string
		blocks    []usage.BlockAgg
		err       error
		util      float64
		reset     time.Time
		unit      string
		reference float64
		refHit    bool
	}{
		// 12 / 40 = 30 %: the largest completed block by cost, not tokens.
		{"cost against the largest block", append(append([]usage.BlockAgg{old}, past...), gap, cur), nil, 30, curStart.Add(5 * time.Hour), "USD", 40, false},
		{"reference that hit the limit", []usage.BlockAgg{past[0], hit, past[2], cur}, nil, 30, curStart.Add(5 * time.Hour), "USD", 40, true},
		// Unpriced: tokens, 1000 / 9500 = 10.526… → 10.5 %.
		{"tokens when nothing is priced", []usage.BlockAgg{unpriced(past[0]), unpriced(past[1]), unpriced(past[2]), unpriced(cur)}, nil, 10.5, curStart.Add(5 * time.Hour), "tokens", 9500, false},
		// The current block above every completed one: capped at 100.
		{"capped at 100", []usage.BlockAgg{past[0], past[1], past[2], block(curStart, time.Hour, 55, 1)}, nil, 100, curStart.Add(5 * time.Hour), "USD", 40, false},
		// Claude Code logged the limit: 100 % until its reset, history or not.
		{"limit reached now", []usage.BlockAgg{curHit}, nil, 100, time.Date(2026, 11, 24, 17, 0, 0, 0, time.UTC), "", 0, false},
		{"too little history", []usage.BlockAgg{past[0], past[1], old, cur}, estimate.ErrHistory, 0, time.Time{}, "", 0, false},
		// Last entry more than 5 h ago: no active block.
		{"no active block", past, estimate.ErrNoActiveBlock, 0, time.Time{}, "", 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			snap, b, err := estimate.FromBlocks(tt.blocks, now)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err %v, want %v", err, tt.err)
			}
			if tt.err != nil {
				if snap != nil {
					t.Errorf("snapshot %+v with an error", snap)
				}
				return
			}
			if snap.Source != quota.SourceEstimate || snap.SevenDay.Util != nil || snap.SevenDay.ResetsAt != nil {
				t.Errorf("snapshot %+v: want source estimate and no 7-day figure", snap)
			}
			if *snap.FiveHour.Util != tt.util || !snap.FiveHour.ResetsAt.Equal(tt.reset) {
				t.Errorf("5-hour %v resets %v, want %v at %v", *snap.FiveHour.Util, *snap.FiveHour.ResetsAt, tt.util, tt.reset)
			}
			if b.Unit != tt.unit || b.Reference != tt.reference || b.RefHitLimit != tt.refHit || b.Util != tt.util {
				t.Errorf("basis %+v", b)
			}
			if txt := b.Text(); !strings.Contains(txt, "7-day unknown") {
				t.Errorf("basis text %q", txt)
			}
		})
	}
}

// transcripts writes one session file under dir/projects/p: an entry
// every 10 minutes in each block given as (start, hours, cost per entry).
func transcripts(t *testing.T, dir string, blocks [][3]float64, base time.Time) {
	t.Helper()
	p := filepath.Join(dir, "projects", "-tmp-p")
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	n := 0
	for _, bl := range blocks {
		start := base.Add(time.Duration(bl[0] * float64(time.Hour)))
		for m := 0.0; m < bl[1]*60; m += 10 {
			ts := start.Add(time.Duration(m) * time.Minute)
			n++
			fmt.Fprintf(&b, `{"type":"assistant","sessionId":"s1","requestId":"req_%d","timestamp":%q,"version":"2.1.330","costUSD":%g,"message":{"id":"msg_%d","model":"claude-sonnet-4-5","usage":{"input_tokens":100,"output_tokens":50}}}`+"\n",
				n, ts.Format(time.RFC3339Nano), bl[2], n)
		}
	}
	if err := os.WriteFile(filepath.Join(p, "s1.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func openStore(t *testing.T) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func getenv(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// TestIfDueRecordsAnEstimate reads real transcript files through the
// store's usage cache into a real SQLite file: three completed blocks
// (largest $6.00: 12 entries × $0.50) and an active one ($1.50: 3 × $0.50)
// give 25 %, stored as an estimate with its basis; the lease makes a second
// call within the interval a no-op; the hook's pace.Current then paces on it.
func TestIfDueRecordsAnEstimate(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	cur := now.Truncate(time.Hour) // 14:00
	base := cur.AddDate(0, 0, -3)
	// Blocks at day 0, 1, 2 (2 h each, $0.25, $0.50, $0.40 per entry) and
	// the active one: 14:00 to 14:20, entries at :00, :10, :20.
	transcripts(t, dir, [][3]float64{{0, 2, 0.25}, {24, 2, 0.5}, {48, 2, 0.4}, {72, 0.5, 0.5}}, base)
	st := openStore(t)
	env := getenv(map[string]string{"CLAUDE_CODE_OAUTH_TOKEN": "sk-ant-oat-test"})

	r := estimate.IfDue(ctx, st, 5*time.Minute, "", env, []string{dir}, now)
	if r.Err != nil || r.Snapshot == nil {
		t.Fatalf("no estimate: %+v", r)
	}
	if got := *r.Snapshot.FiveHour.Util; got != 25 {
		t.Errorf("5-hour %v%%, want 25 (1.50 / 6.00)", got)
	}
	if !r.Snapshot.FiveHour.ResetsAt.Equal(cur.Add(5*time.Hour)) || r.Basis.Blocks != 3 || r.Basis.Unit != "USD" {
		t.Errorf("snapshot %+v basis %+v", r.Snapshot, r.Basis)
	}
	stored, err := st.LatestSnapshot(ctx, quota.SourceEstimate)
	if err != nil || stored == nil || *stored.FiveHour.Util != 25 {
		t.Fatalf("stored %+v %v", stored, err)
	}
	if b := pace.LoadEstimateBasis(ctx, st); b == nil || b.Reference != 6 || b.Current != 1.5 {
		t.Errorf("stored basis %+v", b)
	}
	if files, _ := st.UsageFiles(ctx); len(files) != 1 {
		t.Errorf("usage cache holds %d files, want 1", len(files))
	}
	if again := estimate.IfDue(ctx, st, 5*time.Minute, "", env, []string{dir}, now.Add(time.Minute)); again.Ran || again.Snapshot != nil {
		t.Errorf("second estimate within the interval: %+v", again)
	}
	l, _ := st.LeaseState(ctx, pace.LeaseEstimate)
	if !strings.HasPrefix(l.LastStatus, "ok") || l.Polls != 1 {
		t.Errorf("lease %+v", l)
	}

	rec, _, err := pace.Current(ctx, st, pace.DefaultSettings(), "s1", now)
	if err != nil || rec.Figures == nil || rec.Figures.Source != quota.SourceEstimate || rec.Note != "" {
		t.Fatalf("decision %+v %v", rec, err)
	}
}

func TestIfDueDoesNotApply(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	transcripts(t, dir, [][3]float64{{0, 2, 0.25}, {24, 2, 0.5}, {48, 2, 0.4}, {72, 0.5, 0.5}}, now.Truncate(time.Hour).AddDate(0, 0, -3))

	// An API-key user (no token): no estimate, no lease taken.
	st := openStore(t)
	r := estimate.IfDue(ctx, st, 5*time.Minute, "", getenv(nil), []string{dir}, now)
	if r.Ran || r.Snapshot != nil || !strings.Contains(r.Status, "no subscription limits known") {
		t.Errorf("API-key user: %+v", r)
	}
	if s, _ := st.LatestSnapshot(ctx, ""); s != nil {
		t.Errorf("snapshot stored: %+v", s)
	}

	// Real figures from an hour ago: not needed.
	st = openStore(t)
	u := 10.0
	st.AddSnapshot(ctx, &quota.Snapshot{Time: now.Add(-time.Hour), Source: quota.SourceOAuth, FiveHour: quota.Window{Util: &u}})
	env := getenv(map[string]string{"CLAUDE_CODE_OAUTH_TOKEN": "t"})
	if r := estimate.IfDue(ctx, st, 5*time.Minute, "", env, []string{dir}, now); r.Snapshot != nil || !strings.Contains(r.Status, "not needed") {
		t.Errorf("with recent OAuth figures: %+v", r)
	}
	// Six hours later they are too old: the estimate applies and wins.
	later := now.Add(5*time.Hour + time.Minute)
	transcripts(t, dir, [][3]float64{{0, 2, 0.25}, {24, 2, 0.5}, {48, 2, 0.4}, {72, 0.5, 0.5}, {77, 0.5, 0.5}}, now.Truncate(time.Hour).AddDate(0, 0, -3))
	r = estimate.IfDue(ctx, st, 5*time.Minute, "", env, []string{dir}, later)
	if r.Snapshot == nil {
		t.Fatalf("old OAuth figures: %+v", r)
	}
	if f, err := pace.LatestFigures(ctx, st, later, 5*time.Minute); err != nil || f.Source != quota.SourceEstimate {
		t.Errorf("figures in use: %+v %v", f, err)
	}

	// The hook took the lease: a holder that lost it does nothing.
	if r := estimate.IfDue(ctx, st, 5*time.Minute, "someone-else", env, []string{dir}, later); r.Ran || r.Status != "lease lost" {
		t.Errorf("lost lease: %+v", r)
	}
}
