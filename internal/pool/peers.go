package pool

import (
	"context"
	"time"
)

// Leases is the part of the shared store that hands out leases
// (quota.Store's TryLease: exactly one of any number of callers wins).
type Leases interface {
	TryLease(ctx context.Context, name, holder string, now time.Time, hold time.Duration) (bool, error)
}

// LeaseRecover names the lease under which one worker at a time recovers
// the tasks of workers that are gone.
const LeaseRecover = "pool-recover"

// Peers is the scheduler's view of the other workers
// (orchestrator.Peers): who is gone, from the registry, and the recovery
// lease, from the shared store.
type Peers struct {
	Registry Registry
	Leases   Leases
}

// Orphaned implements orchestrator.Peers.
func (p Peers) Orphaned(ctx context.Context, owner string, now time.Time) (bool, error) {
	return Orphaned(ctx, p.Registry, owner, now)
}

// TryRecover implements orchestrator.Peers.
func (p Peers) TryRecover(ctx context.Context, holder string, now time.Time, hold time.Duration) (bool, error) {
	return p.Leases.TryLease(ctx, LeaseRecover, holder, now, hold)
}

// Heartbeats: a worker beats every BeatEvery; its row is stale (the
// worker gone, its tasks recovered by the others) after MissedBeats
// beats were missed.
const (
	BeatEvery   = 2 * time.Second
	MissedBeats = 5
)
