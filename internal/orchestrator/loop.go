package orchestrator

import (
	"context"
	"fmt"
	"time"

	"github.com/warden-dev/warden/internal/task"
)

// Run reconciles, then steps until ctx ends: on every Interval, and at once
// when Notify wakes it. A watchdog restarts the loop when it has made no
// step for StallAfter (a step stuck in a runner or the store); the stuck
// loop is abandoned and quits when it comes back. On return every agent
// that cannot outlive the daemon is stopped.
func (s *Scheduler) Run(ctx context.Context) error {
	if err := s.Reconcile(ctx); err != nil {
		return err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s.Shutdown(sctx)
	}()
	s.beat.Store(time.Now().UnixNano())
	for gen := int64(0); ; gen++ {
		lctx, cancel := context.WithCancel(ctx)
		exited := make(chan struct{})
		go func() {
			defer close(exited)
			s.loop(lctx)
		}()
		stalled := s.watch(ctx, exited)
		cancel()
		if !stalled {
			// A step in flight finishes first (an agent it is starting
			// is recorded and in s.runs), so Shutdown sees every agent;
			// a step stuck past StallAfter is left behind as above.
			select {
			case <-exited:
			case <-time.After(s.o.StallAfter):
			}
			return ctx.Err()
		}
		s.restarts.Add(1)
		s.record(ctx, "", task.ActWatchdog, fmt.Sprintf("the scheduling loop made no step for %v; restarted it (restart %d)", s.o.StallAfter, s.restarts.Load()))
	}
}

// watch returns true when the loop stalled, false when ctx ended or the
// loop exited.
func (s *Scheduler) watch(ctx context.Context, exited <-chan struct{}) bool {
	check := s.o.StallAfter / 4
	t := time.NewTicker(check)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-exited:
			return ctx.Err() == nil // a loop that returned on its own is restarted
		case <-t.C:
			if time.Since(time.Unix(0, s.beat.Load())) > s.o.StallAfter {
				s.beat.Store(time.Now().UnixNano()) // the new loop gets its own StallAfter
				return true
			}
		}
	}
}

func (s *Scheduler) loop(ctx context.Context) {
	// In a pool a step also recovers gone workers' tasks, which no
	// NOTIFY announces: step at least every RecoverEvery.
	wait := s.o.Interval
	if s.o.Peers != nil {
		wait = min(wait, s.o.RecoverEvery)
	}
	for {
		if err := s.Step(ctx); err != nil && ctx.Err() == nil {
			s.o.Log.Error("scheduling step", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		case <-time.After(wait):
		}
	}
}
