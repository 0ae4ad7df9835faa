package pool_test

import (
	"context"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/pool"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/testenv"
)

func TestRegistryOnPostgres(t *testing.T) {
	ctx := context.Background()
	st, err := postgres.Open(ctx, testenv.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := &pool.Stored{St: st, Stale: 10 * time.Second}
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
	if len(got) != 2 || got[0].Owner != "a:11" || got[0].Agents != 3 || got[0].Load1 != 0.5 || got[0].Stale || got[1].Owner != "b:22" || !got[1].Stale {
		t.Fatalf("systems = %+v; want a:11 fresh with 3 agents, then b:22 stale", got)
	}
	for owner, want := range map[string]bool{"a:11": false, "b:22": true, "c:33": true} {
		if dead, err := pool.Orphaned(ctx, r, owner, now); err != nil || dead != want {
			t.Errorf("Orphaned(%s) = %v, %v; want %v", owner, dead, err, want)
		}
	}
	// Rows gone for long are forgotten; a forgotten owner is orphaned.
	if err := r.Forget(ctx, now.Add(-30*time.Second)); err != nil {
		t.Fatal(err)
	}
	if got, _ := r.Systems(ctx, now); len(got) != 1 || got[0].Owner != "a:11" {
		t.Errorf("after Forget: %+v; want a:11 alone", got)
	}
	if dead, _ := pool.Orphaned(ctx, r, "b:22", now); !dead {
		t.Error("a forgotten worker still counts as alive")
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
