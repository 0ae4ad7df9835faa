//go:build unix

package ship_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/testenv"
)

// A keeper whose idle time runs out while PostgreSQL is down and rows wait
// in the local store stays (it says so in its log) instead of leaving the
// backlog to the next hook; when PostgreSQL is back its shipper drains the
// backlog with no hook firing, and then the keeper leaves once idle. The
// idle time is made short (--idle 2s); every wait is on a condition.
func TestKeeperStaysForTheBacklogThroughAnOutage(t *testing.T) {
	t.Parallel()
	srv := testenv.NewPostgres(t) // ours: stopping it disturbs no other test
	url := testenv.CreateDatabase(t, srv.URL("postgres"))
	h := newHome(t, url)
	k := h.startKeeper(t, "--idle", "2s")
	shared, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer shared.Close()

	hooks := func(from, to int) {
		t.Helper()
		for i := from; i <= to; i++ {
			if out, err := h.hook("s", i); err != nil || len(out) > 0 {
				t.Fatalf("hook %d: %v %s", i, err, out)
			}
		}
	}
	hooks(1, 3)
	testenv.WaitFor(t, 20*time.Second, "the first events in PostgreSQL", func() bool { return countShared(t, shared) == 3 })

	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	hooks(4, 9) // spooled: PostgreSQL is down
	testenv.WaitFor(t, 60*time.Second, "the keeper staying past its idle time for the backlog", func() bool {
		return strings.Contains(k.Log(), "rows wait to be shipped") || isClosed(k.Exited)
	})
	if isClosed(k.Exited) {
		t.Fatalf("the keeper left after its idle time with 6 events not shipped:\n%s", k.Log())
	}

	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	up := time.Now()
	// No hook fires from here on: only the staying keeper's shipper can
	// ship the backlog (its retry wait is at most 5 s this early in an
	// outage).
	testenv.WaitFor(t, 60*time.Second, "the backlog in PostgreSQL without a hook", func() bool { return countShared(t, shared) == 9 })
	drained := time.Now()
	select {
	case <-k.Exited:
	case <-time.After(60 * time.Second):
		t.Fatalf("the keeper did not leave once drained and idle:\n%s", k.Log())
	}
	t.Logf("backlog shipped %.1f s after PostgreSQL came back; the keeper left %.1f s after (idle 2 s)",
		drained.Sub(up).Seconds(), time.Since(drained).Seconds())
	if n := countShared(t, shared); n != 9 {
		t.Fatalf("PostgreSQL holds %d events after the keeper left, want 9", n)
	}
	if c, brk, err := shared.VerifyChain(context.Background()); err != nil || brk != nil || c != 9 {
		t.Fatalf("shared chain: %d rows, break %+v, %v", c, brk, err)
	}
}

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
