package pace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/testenv"
)

func openStore(t *testing.T) *sqlite.Store { return openStoreB(t) }

func openStoreB(t testing.TB) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func fptr(f float64) *float64     { return &f }
func tptr(t time.Time) *time.Time { return &t }

// A Thursday noon: weekday, so the adaptive formula (not the weekend
// emergency) decides.
var thuNoon = time.Date(2025, 11, 6, 12, 0, 0, 0, time.UTC)

func TestFairShareFormula(t *testing.T) {
	for _, tt := range []struct{ d1, n, max, want int }{
		{0, 1, 350, 0}, {0, 4, 350, 0}, {12, 1, 350, 12}, {12, 2, 350, 24}, {12, 4, 350, 48},
		{100, 4, 350, 350}, {350, 4, 350, 350}, {7, 0, 350, 7},
	} {
		if got := FairShare(tt.d1, tt.n, tt.max); got != tt.want {
			t.Errorf("FairShare(%d, %d, %d) = %d, want %d", tt.d1, tt.n, tt.max, got, tt.want)
		}
	}
}

// Fair sharing end to end: 1, 2 and 4 sessions with events in the active
// window share one account; with one session the delay is the reference's.
func TestFairShareWithActiveSessions(t *testing.T) {
	ctx := context.Background()
	reset := thuNoon.Add(4 * time.Hour)
	figures := &quota.Snapshot{Time: thuNoon, Source: quota.SourceStatusline,
		FiveHour: quota.Window{Util: fptr(20.5), ResetsAt: &reset}}
	ref := Decide(Input{Now: thuNoon, FiveHour: Window{Utilization: 20.5, ResetsAt: &reset}}, DefaultParams())
	if ref.DelaySeconds == 0 {
		t.Fatalf("test figures give no delay: %+v", ref)
	}
	for _, n := range []int{1, 2, 4} {
		t.Run(fmt.Sprint(n, " sessions"), func(t *testing.T) {
			st := openStore(t)
			if _, err := st.AddSnapshot(ctx, figures); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < n; i++ {
				ev := &store.Event{Time: thuNoon.Add(-time.Duration(i+1) * time.Minute), SessionID: fmt.Sprint("s", i), Event: "PostToolUse"}
				if err := st.RecordHook(ctx, ev, nil); err != nil {
					t.Fatal(err)
				}
			}
			// An old session outside the 10-minute window does not count,
			// nor one that ended inside it; one resumed after its end does.
			st.RecordHook(ctx, &store.Event{Time: thuNoon.Add(-time.Hour), SessionID: "old", Event: "Stop"}, nil)
			for _, ev := range []string{"PostToolUse", "SessionEnd"} {
				st.RecordHook(ctx, &store.Event{Time: thuNoon.Add(-2 * time.Minute), SessionID: "ended", Event: ev}, nil)
			}
			if n > 1 {
				st.RecordHook(ctx, &store.Event{Time: thuNoon.Add(-3 * time.Minute), SessionID: "s0", Event: "SessionEnd"}, nil)
				st.RecordHook(ctx, &store.Event{Time: thuNoon.Add(-30 * time.Second), SessionID: "s0", Event: "SessionStart"}, nil)
			}
			rec, fresh, err := Current(ctx, st, DefaultSettings(), "s0", thuNoon)
			if err != nil || !fresh {
				t.Fatal(err, fresh)
			}
			if rec.Sessions != n || rec.AlgorithmDelay != ref.DelaySeconds {
				t.Fatalf("sessions %d algo %d, want %d and %d", rec.Sessions, rec.AlgorithmDelay, n, ref.DelaySeconds)
			}
			want := min(n*ref.DelaySeconds, 350)
			if rec.DelaySeconds != want {
				t.Errorf("delay %d, want %d", rec.DelaySeconds, want)
			}
			if n == 1 && rec.DelaySeconds != ref.DelaySeconds {
				t.Errorf("one session must equal the reference")
			}
			// The cached decision is reused within its TTL.
			again, fresh, _ := Current(ctx, st, DefaultSettings(), "s0", thuNoon.Add(10*time.Second))
			if fresh || again.DelaySeconds != rec.DelaySeconds {
				t.Errorf("cache not used: fresh=%v", fresh)
			}
			// New figures make it stale at once.
			st.AddSnapshot(ctx, &quota.Snapshot{Time: thuNoon.Add(11 * time.Second), Source: quota.SourceStatusline,
				FiveHour: quota.Window{Util: fptr(1), ResetsAt: &reset}})
			again, fresh, _ = Current(ctx, st, DefaultSettings(), "s0", thuNoon.Add(12*time.Second))
			if !fresh || again.DelaySeconds != 0 {
				t.Errorf("new figures ignored: fresh=%v delay=%d", fresh, again.DelaySeconds)
			}
		})
	}
}

// old is a copy of s observed age before thuNoon.
func old(s *quota.Snapshot, age time.Duration) *quota.Snapshot {
	c := *s
	c.Time = thuNoon.Add(-age)
	return &c
}

func TestChooseFigures(t *testing.T) {
	now := thuNoon
	sl := &quota.Snapshot{ID: 1, Time: now.Add(-time.Minute), Source: quota.SourceStatusline}
	oldSL := &quota.Snapshot{ID: 2, Time: now.Add(-10 * time.Minute), Source: quota.SourceStatusline}
	oa := &quota.Snapshot{ID: 3, Time: now.Add(-2 * time.Minute), Source: quota.SourceOAuth}
	est := &quota.Snapshot{ID: 4, Time: now, Source: quota.SourceEstimate}
	iv := 5 * time.Minute
	for _, tt := range []struct {
		sl, oa, est *quota.Snapshot
		want        int64
	}{
		{sl, oa, est, 1},    // fresh status line wins even over a newer-enough poll
		{oldSL, oa, est, 3}, // stale status line: the newer poll
		{oldSL, nil, est, 2},
		{nil, nil, est, 4},
		{nil, nil, nil, 0},
		// Real figures older than EstimateAfter give way to a newer estimate,
		// not to an older one.
		{old(sl, 6*time.Hour), old(oa, 5*time.Hour+time.Second), est, 4},
		{old(sl, 6*time.Hour), nil, old(est, 7*time.Hour), 1},
		{nil, old(oa, 4*time.Hour), est, 3},
	} {
		got := ChooseFigures(tt.sl, tt.oa, tt.est, now, iv)
		if (got == nil && tt.want != 0) || (got != nil && got.ID != tt.want) {
			t.Errorf("got %+v, want id %d", got, tt.want)
		}
	}
}

const slPayload = `{"session_id":"s1","model":{"display_name":"Opus"},
 "rate_limits":{"five_hour":{"used_percentage":42,"resets_at":%d},"seven_day":{"used_percentage":61,"resets_at":%d}}}`

func TestRecordStatuslineIsCheap(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	now := thuNoon
	raw := []byte(fmt.Sprintf(slPayload, now.Add(3*time.Hour).Unix(), now.Add(50*time.Hour).Unix()))
	count := func() int {
		s, _ := st.SnapshotsSince(ctx, time.Time{})
		return len(s)
	}
	if err := RecordStatusline(ctx, st, raw, now); err != nil || count() != 1 {
		t.Fatalf("first render: %v, %d snapshots", err, count())
	}
	RecordStatusline(ctx, st, raw, now.Add(5*time.Second)) // same figures, fresh: no write
	if count() != 1 {
		t.Errorf("unchanged figures written again")
	}
	RecordStatusline(ctx, st, raw, now.Add(61*time.Second)) // same figures, older than 60 s
	if count() != 2 {
		t.Errorf("refresh after 60 s not written")
	}
	changed := []byte(fmt.Sprintf(strings.Replace(slPayload, "42", "43", 1), now.Add(3*time.Hour).Unix(), now.Add(50*time.Hour).Unix()))
	RecordStatusline(ctx, st, changed, now.Add(62*time.Second))
	if count() != 3 {
		t.Errorf("changed figures not written")
	}
	// API-key users: no rate_limits, nothing written, no error.
	if err := RecordStatusline(ctx, st, []byte(`{"session_id":"s1","model":{"id":"x"}}`), now.Add(200*time.Second)); err != nil || count() != 3 {
		t.Errorf("no rate_limits: %v %d", err, count())
	}
	snap, _ := st.LatestSnapshot(ctx, quota.SourceStatusline)
	if *snap.FiveHour.Util != 43 || *snap.SevenDay.Util != 61 || snap.SessionID != "s1" ||
		snap.FiveHour.ResetsAt.Unix() != now.Add(3*time.Hour).Unix() {
		t.Errorf("snapshot %+v", snap)
	}
}

func TestStatuslineSegment(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	if got := StatuslineSegment(ctx, st, thuNoon); got != "" {
		t.Errorf("no figures: %q", got)
	}
	now := thuNoon
	raw := []byte(fmt.Sprintf(slPayload, now.Add(3*time.Hour+12*time.Minute).Unix(), now.Add(80*time.Hour).Unix()))
	RecordStatusline(ctx, st, raw, now)
	got := StatuslineSegment(ctx, st, now)
	// 5 h: 1 h 48 m elapsed of 5 h = 36 %, 6 points ahead; 7 d: reset in
	// 80 h → window started Sun 20:00, 84 weekday hours of 120 → 70 %, 9
	// points behind. The 5-hour window is the constrained one: its reset.
	want := "5h 42%/36% ▲  7d 61%/70% ▼ 3h12m"
	if got != want {
		t.Errorf("segment %q, want %q", got, want)
	}
	// Old figures are marked.
	got = StatuslineSegment(ctx, st, now.Add(20*time.Minute))
	if !strings.HasSuffix(got, "(20m old)") {
		t.Errorf("old figures not marked: %q", got)
	}
}

func TestStatusLinesAndReport(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	now := testenv.Now().UTC()
	lines := StatusLines(ctx, st, now)
	if len(lines) != 1 || !strings.Contains(lines[0], "no subscription limits known") {
		t.Errorf("no figures: %q", lines)
	}
	raw := []byte(fmt.Sprintf(slPayload, now.Add(3*time.Hour).Unix(), now.Add(50*time.Hour).Unix()))
	if err := RecordStatusline(ctx, st, raw, now); err != nil {
		t.Fatal(err)
	}
	lines = StatusLines(ctx, st, now)
	all := strings.Join(lines, "\n")
	wantAll(t, "status lines", all, "5-hour: 42.0% used, allowance", "7-day: 61.0% used", "safe", "points", "resets in",
		"the status line", "old", "delay", "active session")
	rep, err := Report(ctx, st, DefaultSettings(), now)
	if err != nil {
		t.Fatal(err)
	}
	wantAll(t, "report", rep, "Figures: the status line", "Why:", "Allowance", "Safe allowance", "Delay now:")
}

func TestNoticesOncePerWindow(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	reset := thuNoon.Add(2 * time.Hour)
	snap := &quota.Snapshot{Time: thuNoon, FiveHour: quota.Window{Util: fptr(81), ResetsAt: &reset}}
	msgs, _ := Notices(ctx, st, snap, thuNoon)
	if len(msgs) != 1 || !strings.Contains(msgs[0], "passed 80%") {
		t.Fatalf("80%%: %q", msgs)
	}
	if msgs, _ := Notices(ctx, st, snap, thuNoon.Add(time.Minute)); len(msgs) != 0 {
		t.Errorf("repeated: %q", msgs)
	}
	snap.FiveHour.Util = fptr(96)
	if msgs, _ := Notices(ctx, st, snap, thuNoon.Add(2*time.Minute)); len(msgs) != 1 || !strings.Contains(msgs[0], "passed 95%") {
		t.Errorf("95%%: %q", msgs)
	}
	// The next window (new reset) notifies again; a jump straight to 97 %
	// says only the higher level.
	next := reset.Add(5 * time.Hour)
	snap = &quota.Snapshot{Time: thuNoon, FiveHour: quota.Window{Util: fptr(97), ResetsAt: &next}}
	if msgs, _ := Notices(ctx, st, snap, thuNoon.Add(3*time.Hour)); len(msgs) != 1 || !strings.Contains(msgs[0], "passed 95%") {
		t.Errorf("next window: %q", msgs)
	}
}

func TestReadToken(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"CLAUDE_CONFIG_DIR": dir}
	getenv := func(k string) string { return env[k] }
	if _, err := ReadToken(getenv); err != ErrNoToken || HasToken(getenv) {
		t.Fatalf("no file: %v", err)
	}
	writeFile(t, filepath.Join(dir, ".credentials.json"), `{"claudeAiOauth":{"accessToken":"abc","expiresAt":1700000000000}}`)
	tok, err := ReadToken(getenv)
	if err != nil || tok.Access != "abc" || tok.ExpiresAt.Unix() != 1700000000 || !HasToken(getenv) {
		t.Fatalf("%+v %v", tok, err)
	}
	env["CLAUDE_CODE_OAUTH_TOKEN"] = "envtok"
	if tok, _ := ReadToken(getenv); tok.Access != "envtok" {
		t.Errorf("env token not preferred")
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
