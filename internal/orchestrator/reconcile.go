package orchestrator

import (
	"context"
	"errors"
	"fmt"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/task"
)

// Reconcile runs once when the daemon starts, before the first step: every
// task a previous daemon left claimed, running or paused is matched with
// reality. An agent still alive (its runner re-finds it) is watched again;
// a task whose agent is gone is queued again, or failed once it has used
// MaxAttempts claims. Nothing stays marked running without an agent, and
// no task is dropped.
func (s *Scheduler) Reconcile(ctx context.Context) error {
	if s.o.Settings != nil {
		// A hold is recomputed by the first step; a stale one must not
		// keep agents paused.
		_ = s.o.Settings.SetSetting(ctx, HoldSetting, "")
	}
	left, err := s.o.Store.Tasks(ctx, task.Filter{Statuses: []task.Status{task.Claimed, task.Running, task.Paused}, Limit: 100000})
	if err != nil {
		return fmt.Errorf("reconcile: %w", err)
	}
	for i := range left {
		t := &left[i]
		if !s.mine(t) {
			continue
		}
		var run agent.Run
		// A claimed task is tried too: a daemon killed between starting an
		// agent and recording it running leaves the agent working under a
		// claim, and starting a second one beside it would fail.
		if r := s.runnerFor(t); r != nil {
			run, err = r.Reattach(ctx, t)
			if err != nil {
				s.o.Log.Error("reattach", "task", t.ID, "err", err)
				run = nil
			}
		}
		now := s.o.Clock.Now()
		if run != nil && t.Owner != s.o.Owner && s.o.Owner != "" {
			// Take the claim over from the previous process, so this
			// worker's fenced changes apply (and a peer's recovery, which
			// fences on the old owner, does not).
			if _, err := s.o.Store.UpdateTask(ctx, t.ID, task.Change{Owner: t.Owner, NewOwner: s.o.Owner}); errors.Is(err, task.ErrConflict) {
				// A peer recovered it since the list was read.
				s.o.Log.Info("reconcile", "task", t.ID, "action", "stopped", "reason", err.Error())
				_ = run.Stop(ctx)
				continue
			} else if err != nil {
				s.o.Log.Error("take over", "task", t.ID, "err", err)
			}
		}
		if run != nil {
			s.mu.Lock()
			s.runs[t.ID] = run
			s.mu.Unlock()
			go func() { <-run.Done(); s.Notify() }()
			if t.Status == task.Claimed {
				_, _ = s.o.Store.UpdateTask(ctx, t.ID, task.Change{From: []task.Status{task.Claimed}, To: task.Running, Time: now,
					Reason: "daemon restarted after its agent had started"})
			}
			if t.Status == task.Paused {
				_, _ = s.o.Store.UpdateTask(ctx, t.ID, task.Change{From: []task.Status{task.Paused}, To: task.Running, Time: now,
					Reason: "daemon restarted; the quota hold is decided again"})
			}
			s.record(ctx, t.ID, task.ActReconcile, fmt.Sprintf("daemon restarted; the agent (%s) is still working: watching it again", run.Ref()))
			continue
		}
		// A conflict: the task moved since it was listed (in a pool, a
		// peer recovered it first); it is not this daemon's to change.
		if err := s.requeueOrFail(ctx, t, "daemon restarted"); err != nil && !errors.Is(err, task.ErrConflict) {
			return fmt.Errorf("reconcile %s: %w", t.ID, err)
		}
	}
	return nil
}
