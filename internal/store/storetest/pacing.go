package storetest

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/store"
)

func fp(f float64) *float64 { return &f }

func testPacingLedger(t *testing.T, b SharedBackend) {
	st := b.fresh(t)
	base := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	reset := base.Add(3 * time.Hour)
	if s, err := st.LatestSnapshot(ctx, ""); s != nil || err != nil {
		t.Errorf("latest of none: %+v %v", s, err)
	}
	for i, snap := range []quota.Snapshot{
		{Time: base, Source: "statusline", SessionID: "s1", FiveHour: quota.Window{Util: fp(40), ResetsAt: &reset}},
		{Time: base.Add(time.Minute), Source: "oauth", FiveHour: quota.Window{Util: fp(41.5)}, SevenDay: quota.Window{Util: fp(60), ResetsAt: &reset}},
		{Time: base.Add(2 * time.Minute), Source: "statusline", SessionID: "s2"},
	} {
		id, err := st.AddSnapshot(ctx, &snap)
		if err != nil || id == 0 || snap.ID != id {
			t.Fatalf("snapshot %d: id %d (%v)", i, id, err)
		}
	}
	latest, err := st.LatestSnapshot(ctx, "")
	if err != nil || latest.SessionID != "s2" || latest.FiveHour.Util != nil || latest.FiveHour.ResetsAt != nil {
		t.Errorf("latest: %+v %v", latest, err)
	}
	oauth, _ := st.LatestSnapshot(ctx, "oauth")
	if oauth == nil || *oauth.FiveHour.Util != 41.5 || *oauth.SevenDay.Util != 60 || !oauth.SevenDay.ResetsAt.Equal(reset) || !oauth.Time.Equal(base.Add(time.Minute)) {
		t.Errorf("oauth: %+v", oauth)
	}
	if since, _ := st.SnapshotsSince(ctx, base); len(since) != 2 || since[0].Source != "oauth" {
		t.Errorf("since: %+v", since)
	}

	if d, err := st.LatestDecision(ctx); d != nil || err != nil {
		t.Errorf("latest decision of none: %+v %v", d, err)
	}
	for i := range 2 {
		d := &quota.Decision{Time: base.Add(time.Duration(i) * time.Minute), SnapshotID: 1, Sessions: 2 + i, DelaySeconds: 10 * i,
			AlgorithmDelay: 20, Window: "five_hour", Strategy: "even", Detail: []byte(fmt.Sprintf(`{"n":%d}`, i))}
		if id, err := st.SaveDecision(ctx, d); err != nil || id == 0 {
			t.Fatalf("decision: %d %v", id, err)
		}
	}
	d, _ := st.LatestDecision(ctx)
	if d == nil || d.Sessions != 3 || d.DelaySeconds != 10 || d.Window != "five_hour" || string(d.Detail) != `{"n":1}` {
		t.Errorf("latest decision %+v", d)
	}

	// Active sessions: an event since, and not ended.
	for _, ev := range []store.Event{
		{Time: base, SessionID: "a", Event: "PreToolUse"},
		{Time: base, SessionID: "b", Event: "PreToolUse"},
		{Time: base.Add(time.Second), SessionID: "b", Event: "SessionEnd"},
		{Time: base.Add(-time.Hour), SessionID: "old", Event: "PreToolUse"},
		{Time: base, SessionID: "c", Event: "SessionEnd"},
		{Time: base.Add(2 * time.Second), SessionID: "c", Event: "SessionStart"}, // resumed
	} {
		record(t, st, ev, nil)
	}
	if act, err := st.ActiveSessions(ctx, base.Add(-time.Minute)); err != nil || fmt.Sprint(act) != "[a c]" {
		t.Errorf("active %v %v, want [a c]", act, err)
	}

	// Notices: once per window, reset (rounded) and level.
	for i, c := range []struct {
		window string
		reset  time.Time
		level  int
		want   bool
	}{
		{"five_hour", reset, 80, true},
		{"five_hour", reset.Add(40 * time.Second), 80, false}, // the same reset, reported a bit later
		{"five_hour", reset, 95, true},
		{"seven_day", reset, 80, true},
		{"five_hour", reset.Add(5 * time.Hour), 80, true},
	} {
		got, err := st.ClaimNotice(ctx, c.window, c.reset, c.level, base)
		if err != nil || got != c.want {
			t.Errorf("notice %d: %v (%v), want %v", i, got, err, c.want)
		}
	}
	n, err := st.PrunePacing(ctx, base.Add(30*time.Second))
	if err != nil || n != 1+1+4 { // the snapshot and the decision at 0, every notice
		t.Errorf("pruned %d (%v), want 6", n, err)
	}
	if since, _ := st.SnapshotsSince(ctx, time.Time{}); len(since) != 2 {
		t.Errorf("%d snapshots left, want 2", len(since))
	}
	if d, _ := st.LatestDecision(ctx); d == nil || d.Sessions != 3 {
		t.Errorf("pruning removed the newer decision: %+v", d)
	}
}

// The poll lease: of holders racing on two handles (two workers), exactly
// one gets it; nobody gets it again before its Next; FinishLease by the
// holder sets Next, by anyone else changes nothing.
func testPollLeaseOneWinner(t *testing.T, b SharedBackend) {
	a, c := b.twin(t)
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	if l, err := a.LeaseState(ctx, "oauth"); err != nil || l.Holder != "" || !l.Next.IsZero() || l.Name != "oauth" {
		t.Errorf("untaken lease: %+v %v", l, err)
	}
	for round := range 3 {
		at := now.Add(time.Duration(round) * time.Hour)
		var wins atomic.Int32
		var winner atomic.Value
		var wg sync.WaitGroup
		for i := range 12 {
			st := []Shared{a, c}[i%2]
			wg.Go(func() {
				holder := fmt.Sprint("h", i)
				ok, err := st.TryLease(ctx, "oauth", holder, at, 30*time.Second)
				if err != nil {
					t.Error(err)
				}
				if ok {
					wins.Add(1)
					winner.Store(holder)
				}
			})
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Fatalf("round %d: %d winners, want 1", round, wins.Load())
		}
		l, _ := a.LeaseState(ctx, "oauth")
		if l.Holder != winner.Load() || !l.Next.Equal(at.Add(30*time.Second)) || l.Polls != int64(round+1) {
			t.Errorf("round %d: lease %+v, winner %v", round, l, winner.Load())
		}
		if ok, _ := c.TryLease(ctx, "oauth", "late", at.Add(10*time.Second), time.Minute); ok {
			t.Errorf("round %d: taken again before Next", round)
		}
		// Another holder's finish changes nothing; the holder's sets Next.
		if err := c.FinishLease(ctx, "oauth", "intruder", at, at.Add(time.Hour), 9, "bogus"); err != nil {
			t.Fatal(err)
		}
		if err := a.FinishLease(ctx, "oauth", l.Holder, at.Add(time.Second), at.Add(5*time.Minute), round, "ok"); err != nil {
			t.Fatal(err)
		}
		l, _ = c.LeaseState(ctx, "oauth")
		if !l.Next.Equal(at.Add(5*time.Minute)) || l.Failures != round || l.LastStatus != "ok" || !l.Last.Equal(at.Add(time.Second)) {
			t.Errorf("round %d: after finish %+v", round, l)
		}
	}
}
