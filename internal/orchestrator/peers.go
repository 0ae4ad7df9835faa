package orchestrator

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/warden-dev/warden/internal/task"
)

// Peers is what the scheduler needs when other daemons share its queue
// (several `warden serve` workers on one PostgreSQL store). The daemon
// builds it from the systems registry and the store's leases
// (internal/pool); nil on a SQLite store, where this daemon is alone.
type Peers interface {
	// Orphaned reports whether the worker that owns a claim (a task's
	// Owner) is gone: it left, or missed enough heartbeats.
	Orphaned(ctx context.Context, owner string, now time.Time) (bool, error)
	// TryRecover takes the pool's recovery lease for hold: while one
	// worker holds it, no other recovers, so an orphaned task is requeued
	// by one worker, once.
	TryRecover(ctx context.Context, holder string, now time.Time, hold time.Duration) (bool, error)
}

// recoverPeers requeues (or fails, past MaxAttempts) the active tasks of
// workers that are gone, by the rules Reconcile applies to a daemon's own
// tasks after a restart. It runs every RecoverEvery, on the one worker
// holding the recovery lease. A task another worker claimed, started or
// finished meanwhile no longer matches the change's From and is left
// alone.
func (s *Scheduler) recoverPeers(ctx context.Context, now time.Time) error {
	last := s.lastRecover.Load()
	if last != 0 && now.Sub(time.Unix(0, last)) < s.o.RecoverEvery {
		return nil
	}
	s.lastRecover.Store(now.UnixNano())
	got, err := s.o.Peers.TryRecover(ctx, s.o.Owner, now, s.o.RecoverEvery)
	if err != nil || !got {
		return err
	}
	left, err := s.o.Store.Tasks(ctx, task.Filter{Statuses: []task.Status{task.Claimed, task.Running, task.Paused}, Limit: 100000})
	if err != nil {
		return fmt.Errorf("recover: %w", err)
	}
	gone := map[string]bool{}
	for i := range left {
		t := &left[i]
		if t.Owner == s.o.Owner {
			continue
		}
		dead, seen := gone[t.Owner]
		if !seen {
			if dead, err = s.o.Peers.Orphaned(ctx, t.Owner, now); err != nil {
				return fmt.Errorf("recover: %w", err)
			}
			gone[t.Owner] = dead
		}
		if !dead {
			continue
		}
		if err := s.requeueOrFail(ctx, t, fmt.Sprintf("worker %s is gone (no heartbeat)", t.Owner)); err != nil && !errors.Is(err, task.ErrConflict) {
			return fmt.Errorf("recover %s: %w", t.ID, err)
		}
	}
	return nil
}

// requeueOrFail is the fate of a task whose agent is gone: queued again,
// or failed once it has used MaxAttempts claims.
func (s *Scheduler) requeueOrFail(ctx context.Context, t *task.Task, cause string) error {
	now := s.o.Clock.Now()
	if t.Attempts >= s.maxAttempts() {
		msg := fmt.Sprintf("the agent was lost %d times (%s while it ran); giving up after serve.max_attempts", t.Attempts, cause)
		if _, err := s.o.Store.UpdateTask(ctx, t.ID, task.Change{From: []task.Status{t.Status}, To: task.Failed, Time: now, Reason: msg, Error: &msg, Owner: t.Owner}); err != nil {
			return err
		}
		s.record(ctx, t.ID, task.ActFail, msg)
		return nil
	}
	why := fmt.Sprintf("%s while the task was %s (attempt %d of %d); its agent is gone: queued again", cause, t.Status, t.Attempts, s.maxAttempts())
	if _, err := s.o.Store.UpdateTask(ctx, t.ID, task.Change{From: []task.Status{t.Status}, To: task.Queued, Time: now, Reason: why, Requeue: true, Owner: t.Owner}); err != nil {
		return err
	}
	s.record(ctx, t.ID, task.ActRequeue, why)
	return nil
}

// dropCancelled stops the agents of tasks cancelled through another
// worker's API, or recovered by a peer (owner fenced): only the store
// tells this worker about them.
func (s *Scheduler) dropCancelled(ctx context.Context) {
	s.mu.Lock()
	ids := make([]string, 0, len(s.runs))
	for id := range s.runs {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	for _, id := range ids {
		t, err := s.o.Store.Task(ctx, id)
		if err != nil {
			continue
		}
		// Cancelled through another worker's API, or recovered by a peer
		// while this worker missed its heartbeats: either way no longer
		// this worker's to run.
		lost := s.o.Owner != "" && t.Owner != s.o.Owner
		if t.Status != task.Cancelled && !lost {
			continue
		}
		s.mu.Lock()
		run := s.runs[id]
		delete(s.runs, id)
		s.mu.Unlock()
		if run == nil {
			continue
		}
		if err := run.Stop(ctx); err != nil {
			s.o.Log.Error("stop agent of a task cancelled elsewhere", "task", id, "err", err)
		}
		why := "cancelled through another worker"
		if t.Status != task.Cancelled {
			why = fmt.Sprintf("no longer this worker's: %s, owner %q", t.Status, t.Owner)
		}
		s.o.Log.Info("scheduler", "task", id, "action", "stopped", "reason", why)
	}
}

// mine reports whether Reconcile should take t at start-up. Alone on its
// store, a daemon takes every active task. In a pool it takes only those
// a previous daemon of its own system left behind — the same system
// name, another pid, that process gone — and leaves the others' tasks to
// their workers (or to recoverPeers once those are gone).
func (s *Scheduler) mine(t *task.Task) bool {
	if s.o.Peers == nil {
		return t.System == "" || t.System == s.o.System
	}
	if t.Owner == s.o.Owner {
		return true
	}
	i := strings.LastIndexByte(t.Owner, ':')
	if i < 0 || t.Owner[:i] != s.o.System {
		return false
	}
	pid, err := strconv.Atoi(t.Owner[i+1:])
	return err == nil && pid > 0 && syscall.Kill(pid, 0) == syscall.ESRCH
}
