package daemon

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
	"github.com/warden-dev/warden/internal/testenv"
)

// TestEventReadsFallBackAndReturn: reads go to the shared store; when it
// stops answering they come from the local store at once and stay there
// for sharedRetry (no page waits on a dead server each time), then go
// back to the shared store once it answers again.
func TestEventReadsFallBackAndReturn(t *testing.T) {
	dbURL := testenv.Postgres(t)
	ctx := context.Background()
	local := sqlitetest.Store(t, filepath.Join(t.TempDir(), "warden.db"))
	if err := local.RecordHook(ctx, &store.Event{SessionID: "here", Event: "Stop"}, nil); err != nil {
		t.Fatal(err)
	}
	pg, err := postgres.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	now := time.Now()
	if _, err := pg.ImportEvents(ctx, "elsewhere", []store.Event{
		{ID: 1, Time: now, SessionID: "there", Event: "Stop"},
		{ID: 2, Time: now, SessionID: "there", Event: "Stop"},
	}); err != nil {
		t.Fatal(err)
	}
	r := newEventReads(local, "/local.db", slog.New(slog.DiscardHandler))
	clock := now
	r.now = func() time.Time { return clock }
	sessions := func() string {
		t.Helper()
		evs, err := r.SearchEvents(ctx, store.EventQuery{})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range evs {
			out = append(out, e.SessionID)
		}
		return strings.Join(out, " ") + " from " + r.Source()
	}
	if got := sessions(); got != "here from local" {
		t.Errorf("no shared store: %s", got)
	}
	r.useShared(pg, pg.Where())
	if got := sessions(); got != "there there from shared" || !strings.Contains(r.Label(), "every machine") {
		t.Errorf("shared store: %s (%s)", got, r.Label())
	}

	testenv.AllowConnections(t, dbURL, false)
	t.Cleanup(func() { testenv.AllowConnections(t, dbURL, true) })
	if got := sessions(); got != "here from local" {
		t.Errorf("shared store gone: %s", got)
	}
	st, _ := r.Status(ctx)
	if d := st.(map[string]any); d["source"] != sourceLocal || d["shared_error"] == "" || !strings.Contains(r.Label(), "did not answer") {
		t.Errorf("status while the shared store is gone: %v (%s)", d, r.Label())
	}

	testenv.AllowConnections(t, dbURL, true)
	clock = clock.Add(sharedRetry - time.Second)
	if got := sessions(); got != "here from local" {
		t.Errorf("before the retry is due: %s; want the local store still", got)
	}
	// Once the retry is due the shared store answers again (the pool may
	// first hand out a connection the server ended: that read falls back
	// and the next retry gets a new one).
	for try := 1; ; try++ {
		clock = clock.Add(sharedRetry)
		got := sessions()
		if got == "there there from shared" {
			break
		}
		if try == 3 {
			t.Fatalf("shared store back, still reading: %s", got)
		}
	}
}
