package pace

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/reqenv"
	"github.com/warden-dev/warden/internal/testenv"
)

func TestNeedsEstimate(t *testing.T) {
	now := thuNoon
	at := func(age time.Duration, src string) *quota.Snapshot {
		return &quota.Snapshot{Time: now.Add(-age), Source: src}
	}
	for _, tt := range []struct {
		sl, oa *quota.Snapshot
		want   bool
	}{
		{nil, nil, true},
		{at(time.Minute, quota.SourceStatusline), nil, false},
		{nil, at(EstimateAfter, quota.SourceOAuth), false}, // exactly 5 h: still real
		{at(6*time.Hour, quota.SourceStatusline), at(EstimateAfter+time.Second, quota.SourceOAuth), true},
		{at(6*time.Hour, quota.SourceStatusline), at(time.Hour, quota.SourceOAuth), false},
	} {
		if got := NeedsEstimate(tt.sl, tt.oa, now); got != tt.want {
			t.Errorf("NeedsEstimate(%v, %v) = %v", tt.sl, tt.oa, got)
		}
	}
}

// MaybePoll starts the estimate alone while the OAuth poll backs off and no
// real figures exist, once per interval across sessions; never without a
// token (API-key users).
func TestMaybePollStartsTheEstimate(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := DefaultSettings()
	now := thuNoon
	var spawned [][]string
	spawn := Spawn
	Spawn = func(_ *reqenv.Env, args []string) error { spawned = append(spawned, args); return nil }
	t.Cleanup(func() { Spawn = spawn })
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	t.Setenv("CLAUDE_SECURESTORAGE_CONFIG_DIR", "")

	// No token: nothing, ever.
	t.Setenv("CLAUDE_CODE_OAUTH_TOKEN", "")
	if started, err := MaybePoll(ctx, st, s, now); started || err != nil || len(spawned) != 0 {
		t.Fatalf("API-key user: started %v %v %v", started, err, spawned)
	}

	t.Setenv("CLAUDE_CODE_OAUTH_TOKEN", "tok")
	// The OAuth poll is due first.
	if started, _ := MaybePoll(ctx, st, s, now); !started || spawned[0][2] != "--holder" {
		t.Fatalf("OAuth poll not started: %v", spawned)
	}
	// It failed and backs off for an hour.
	if err := st.FinishLease(ctx, LeaseOAuth, spawned[0][3], now, now.Add(time.Hour), 1, "http 401"); err != nil {
		t.Fatal(err)
	}
	// The estimate lease was not taken by the poll (say the transcripts
	// could not tell): the next check starts the estimate alone...
	if started, _ := MaybePoll(ctx, st, s, now.Add(time.Minute)); !started || len(spawned) != 2 || spawned[1][2] != "--estimate-holder" {
		t.Fatalf("estimate not started: %v", spawned)
	}
	l, _ := st.LeaseState(ctx, LeaseEstimate)
	if l.Holder != spawned[1][3] {
		t.Errorf("estimate lease %+v, spawned %v", l, spawned[1])
	}
	// ...once per interval across sessions.
	if started, _ := MaybePoll(ctx, st, s, now.Add(2*time.Minute)); started {
		t.Fatal("second estimate within the interval")
	}
	if started, _ := MaybePoll(ctx, st, s, now.Add(7*time.Minute)); !started || len(spawned) != 3 {
		t.Fatalf("no estimate after the interval: %v", spawned)
	}
	// Recent OAuth figures: no estimate.
	u := 30.0
	st.AddSnapshot(ctx, &quota.Snapshot{Time: now.Add(10 * time.Minute), Source: quota.SourceOAuth, FiveHour: quota.Window{Util: &u}})
	if started, _ := MaybePoll(ctx, st, s, now.Add(20*time.Minute)); started {
		t.Fatalf("estimate although the OAuth figures are recent: %v", spawned)
	}
}

func TestSubscription(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"CLAUDE_CONFIG_DIR": dir}
	get := func(k string) string { return env[k] }
	if Subscription(get) {
		t.Error("no credentials: subscription")
	}
	// MCP tokens only (an API-key user may have them): no subscription,
	// although HasToken's stat says maybe.
	os.WriteFile(filepath.Join(dir, ".credentials.json"), []byte(`{"mcpOAuth":{"x":{"accessToken":"m"}}}`), 0o600)
	if Subscription(get) || !HasToken(get) {
		t.Error("mcpOAuth only")
	}
	// An expired claude.ai token still shows a subscription.
	os.WriteFile(filepath.Join(dir, ".credentials.json"), []byte(`{"claudeAiOauth":{"accessToken":"a","expiresAt":1000}}`), 0o600)
	if !Subscription(get) {
		t.Error("expired token: no subscription")
	}
}

// warden status and warden pace say the figures are estimated and what
// they rest on.
func TestReportsSayEstimated(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	now := testenv.Now().UTC()
	u, reset := 72.5, now.Add(2*time.Hour).Truncate(time.Second)
	if _, err := st.AddSnapshot(ctx, &quota.Snapshot{Time: now.Add(-time.Minute), Source: quota.SourceEstimate,
		FiveHour: quota.Window{Util: &u, ResetsAt: &reset}}); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(EstimateBasis{Time: now, BlockStart: reset.Add(-5 * time.Hour), ResetsAt: reset, Unit: "USD",
		Current: 29, Reference: 40, RefStart: now.AddDate(0, 0, -2), Blocks: 12, Util: 72.5})
	st.SetSetting(ctx, SettingEstimate, string(b))

	all := strings.Join(StatusLines(ctx, st, now), "\n")
	wantAll(t, "status", all, "5-hour (ESTIMATED): 72.5% used", "7-day: unknown", "an ESTIMATE from local transcripts",
		"pacing estimate: 5-hour ≈ current block", "$29.00 at API prices", "largest of 12 completed blocks", "$40.00", "lower bound")
	rep, err := Report(ctx, st, DefaultSettings(), now)
	if err != nil {
		t.Fatal(err)
	}
	wantAll(t, "report", rep, "These figures are ESTIMATED", "7-day   unknown", "Figures: an ESTIMATE", "Estimate: 5-hour ≈", "Why:")
	if strings.Contains(rep, "7-day     0.0% used") {
		t.Errorf("report shows a 7-day figure:\n%s", rep)
	}
}

// An estimated window's notice says it is estimated.
func TestNoticeOfAnEstimate(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	reset := thuNoon.Add(2 * time.Hour)
	snap := &quota.Snapshot{Time: thuNoon, Source: quota.SourceEstimate, FiveHour: quota.Window{Util: fptr(96), ResetsAt: &reset}}
	msgs, err := Notices(ctx, st, snap, thuNoon)
	if err != nil || len(msgs) != 1 || !strings.Contains(msgs[0], "5-hour usage window is at 96%") || !strings.Contains(msgs[0], "ESTIMATED") {
		t.Errorf("notices %q %v", msgs, err)
	}
}

// Estimated figures never give more than EstimateMaxDelay; the same real
// figures give the reference's emergency delay.
func TestEstimatedDelayIsCapped(t *testing.T) {
	now := time.Date(2026, 11, 24, 10, 57, 0, 0, time.UTC) // a Tuesday, minute 57 of the block
	u, reset := 50.0, time.Date(2026, 11, 24, 15, 0, 0, 0, time.UTC)
	snap := func(src string) *quota.Snapshot {
		return &quota.Snapshot{Time: now, Source: src, FiveHour: quota.Window{Util: &u, ResetsAt: &reset}}
	}
	real := Compute(snap(quota.SourceStatusline), DefaultSettings(), 1, now)
	if real.DelaySeconds <= EstimateMaxDelay || real.EstimateCapped {
		t.Fatalf("real figures: delay %d s capped=%v, want the uncapped emergency delay", real.DelaySeconds, real.EstimateCapped)
	}
	est := Compute(snap(quota.SourceEstimate), DefaultSettings(), 1, now)
	if est.DelaySeconds != EstimateMaxDelay || !est.EstimateCapped || est.AlgorithmDelay != real.AlgorithmDelay {
		t.Fatalf("estimated figures: delay %d s (algorithm %d) capped=%v, want %d s capped", est.DelaySeconds, est.AlgorithmDelay, est.EstimateCapped, EstimateMaxDelay)
	}
}
