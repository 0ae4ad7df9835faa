package pool_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/pool"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/testenv"
)

// TestLedgerPollsOncePerIntervalForThePool: three machines, each with
// its local SQLite store and busy sessions whose hooks try the local poll
// lease every round (as pace.MaybePoll does), share one PostgreSQL
// ledger. Over 20 simulated minutes at a 60 s poll interval the pool
// polls about 20 times — not 60 — and a status-line snapshot recorded on
// one machine reaches the others' local stores and the shared one.
func TestLedgerPollsOncePerIntervalForThePool(t *testing.T) {
	ctx := context.Background()
	shared, err := postgres.Open(ctx, testenv.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	defer shared.Close()
	const interval = time.Minute
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	var locals []*sqlite.Store
	var ledgers []*pool.Ledger
	for i := range 3 {
		st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "warden.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		locals = append(locals, st)
		ledgers = append(ledgers, &pool.Ledger{Local: st, Shared: shared, Owner: pool.OwnerOf(fmt.Sprintf("m%d", i), 100+i), Interval: interval, Every: 2 * time.Second, Log: log})
	}
	base := time.Now().UTC().Truncate(time.Second)
	polls := map[int]int{}
	total := 0
	const round = 2 * time.Second
	for k := 0; k < int(20*time.Minute/round); k++ {
		now := base.Add(time.Duration(k) * round)
		for i, st := range locals {
			// A hook of a busy session: an event, then the poll attempt.
			if err := st.RecordHook(ctx, &store.Event{Time: now, SessionID: fmt.Sprintf("s%d", i), Event: "PostToolUse", Harness: "claude", Decision: "allow"}, nil); err != nil {
				t.Fatal(err)
			}
			holder := fmt.Sprintf("hook-%d-%d", i, k)
			got, err := st.TryLease(ctx, "oauth", holder, now, interval)
			if err != nil {
				t.Fatal(err)
			}
			if got {
				polls[i]++
				total++
				// The poll succeeds: next one after the interval.
				if err := st.FinishLease(ctx, "oauth", holder, now, now.Add(interval), 0, "ok"); err != nil {
					t.Fatal(err)
				}
			}
			if err := ledgers[i].Sync(ctx, now); err != nil {
				t.Fatal(err)
			}
		}
	}
	// 20 intervals; the first round may see every machine poll before
	// the ledgers have met the pool's lease.
	if total > 20+3 || total < 18 {
		t.Errorf("the pool polled %d times in 20 minutes at a 1-minute interval (per machine %v); want about 20", total, polls)
	}
	t.Logf("polls in 20 minutes: %d (per machine %v)", total, polls)

	// Figures travel: a status line on m1 reaches m0, m2 and the pool.
	u := 42.0
	at := base.Add(21 * time.Minute)
	if _, err := locals[1].AddSnapshot(ctx, &quota.Snapshot{Time: at, Source: quota.SourceStatusline, FiveHour: quota.Window{Util: &u}}); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{1, 0, 2} {
		if err := ledgers[i].Sync(ctx, at); err != nil {
			t.Fatal(err)
		}
	}
	for i, st := range append([]quota.Store{shared}, locals[0], locals[2]) {
		s, err := st.LatestSnapshot(ctx, quota.SourceStatusline)
		if err != nil || s == nil || !s.Time.Equal(at) || s.FiveHour.Util == nil || *s.FiveHour.Util != 42 {
			t.Errorf("store %d: latest status line %+v, %v; want m1's 42%% at %v", i, s, err, at)
		}
	}
}
