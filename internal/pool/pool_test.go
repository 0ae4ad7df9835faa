package pool_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/warden-dev/warden/internal/pool"
	"github.com/warden-dev/warden/internal/testenv"
)

func TestRegistryOnPostgres(t *testing.T) {
	url := testenv.Postgres(t)
	ctx := context.Background()
	r, err := pool.OpenPG(ctx, url, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// Opening twice is fine: the table is created only when missing.
	r2, err := pool.OpenPG(ctx, url, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	r2.Close()
	now := time.Now().UTC().Truncate(time.Millisecond)
	a := pool.System{Owner: pool.OwnerOf("a", 11), Name: "a", Host: "h1", PID: 11, Version: "v1", Agents: 2, MaxAgents: 4, Load1: 0.5, Started: now, Heartbeat: now}
	b := pool.System{Owner: pool.OwnerOf("b", 22), Name: "b", Host: "h2", PID: 22, Started: now, Heartbeat: now.Add(-time.Minute)}
	for _, s := range []pool.System{a, b} {
		if err := r.Beat(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	a.Agents = 3 // a second beat replaces the row
	if err := r.Beat(ctx, a); err != nil {
		t.Fatal(err)
	}
	got, err := r.Systems(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Owner != "a:11" || got[0].Agents != 3 || got[0].Stale || got[1].Owner != "b:22" || !got[1].Stale {
		t.Fatalf("systems = %+v; want a:11 fresh with 3 agents, then b:22 stale", got)
	}
	for owner, want := range map[string]bool{"a:11": false, "b:22": true, "c:33": true} {
		if dead, err := pool.Orphaned(ctx, r, owner, now); err != nil || dead != want {
			t.Errorf("Orphaned(%s) = %v, %v; want %v", owner, dead, err, want)
		}
	}
	if err := r.Leave(ctx, "a:11"); err != nil {
		t.Fatal(err)
	}
	if dead, _ := pool.Orphaned(ctx, r, "a:11", now); !dead {
		t.Error("a worker that left still counts as alive")
	}
}

func TestSplitOwner(t *testing.T) {
	for owner, want := range map[string]struct {
		name string
		pid  int
	}{"box:12": {"box", 12}, "my:box:7": {"my:box", 7}, "test": {"test", 0}, "x:y": {"x:y", 0}} {
		if n, p := pool.SplitOwner(owner); n != want.name || p != want.pid {
			t.Errorf("SplitOwner(%q) = %q, %d", owner, n, p)
		}
	}
}

// TestListenWakesAndReconnects: a NOTIFY wakes the listener; when the
// server ends its connection, it connects again and wakes on the next.
func TestListenWakesAndReconnects(t *testing.T) {
	url := testenv.Postgres(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	wake := make(chan struct{}, 100)
	connected := make(chan struct{}, 10)
	done := make(chan struct{})
	go func() {
		defer close(done)
		pool.Listen(ctx, url, func() { wake <- struct{}{} }, func() { connected <- struct{}{} }, slog.New(slog.NewTextHandler(io.Discard, nil)))
	}()
	defer func() { cancel(); <-done }()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	waitFor(t, connected, "the first LISTEN")
	waitFor(t, wake, "the wake on connect")
	if _, err := conn.Exec(ctx, "NOTIFY "+pool.Channel+", 't1'"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, wake, "the wake on NOTIFY")
	// End the listener's backend as a restarted server would.
	if _, err := conn.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid() AND query ILIKE 'LISTEN%'`); err != nil {
		t.Fatal(err)
	}
	waitFor(t, connected, "the LISTEN again after the connection was ended")
	waitFor(t, wake, "the wake on reconnect")
	if _, err := conn.Exec(ctx, "NOTIFY "+pool.Channel+", 't2'"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, wake, "the wake on NOTIFY after reconnecting")
}

func waitFor(t *testing.T, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(20 * time.Second):
		t.Fatalf("gave up waiting for %s", what)
	}
}
