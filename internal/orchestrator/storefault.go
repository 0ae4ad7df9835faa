package orchestrator

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/task"
)

// A store that stops taking writes (a full disk, a file removed under the
// daemon) must not leave agents working that it has no record of: such an
// agent's task stays claimed, and the next start runs it again beside or
// after it. So the start is recorded before the agent runs (startRecorded)
// and an agent whose running state the store refused is stopped at once
// (unrecorded). Options.Gate, when the daemon's guard has latched a fault,
// keeps the scheduler from claiming anything more (gated).

// gated reports whether Options.Gate refuses new work, logging its reason
// once per fault.
func (s *Scheduler) gated() bool {
	if s.o.Gate == nil {
		return false
	}
	err := s.o.Gate()
	s.mu.Lock()
	first := err != nil && !s.gateShut
	s.gateShut = err != nil
	s.mu.Unlock()
	if first {
		s.o.Log.Error("scheduler: taking no new work", "reason", err.Error())
	}
	return err != nil
}

// startRecorded records the decision to start t before its agent runs:
// when the store refuses it, no agent starts and the task is left claimed
// for the next start's reconciliation (the write that would queue it again
// would meet the same store).
func (s *Scheduler) startRecorded(ctx context.Context, t *task.Task, why string) error {
	reason := why
	if s.o.Peers != nil {
		reason += " [" + s.o.Owner + "]"
	}
	err := s.o.Store.RecordDecision(ctx, task.Decision{Time: s.o.Clock.Now(), TaskID: t.ID, Action: task.ActStart, Reason: reason})
	if err != nil {
		s.o.Log.Error("the store did not take the start of a task: its agent is not started", "task", t.ID, "err", err)
		return fmt.Errorf("record the start of task %s: %w", t.ID, err)
	}
	s.o.Log.Info("scheduler", "task", t.ID, "action", task.ActStart, "reason", reason)
	return nil
}

// unrecorded stops the agent of t that started but whose running state
// the store did not take, and tries to queue t again with its attempt
// refunded (likely refused too; then the next start reconciles it).
// A conflict is no fault of the store: the task was cancelled (or, in a
// pool, recovered by a peer) between its claim and its start; the agent
// is stopped all the same, and the task keeps what it became.
func (s *Scheduler) unrecorded(ctx context.Context, t *task.Task, run agent.Run, markErr error) error {
	conflict := errors.Is(markErr, task.ErrConflict)
	if conflict {
		s.o.Log.Info("scheduler", "task", t.ID, "action", "stopped", "reason", "the task changed before its agent was recorded running: "+markErr.Error())
	} else {
		s.o.Log.Error("the store did not record that a task runs: its agent is stopped", "task", t.ID, "agent", run.Ref(), "err", markErr)
	}
	if err := run.Stop(ctx); err != nil {
		s.o.Log.Error("stop agent", "task", t.ID, "err", err)
	}
	select {
	case <-run.Done():
	case <-time.After(10 * time.Second):
	}
	if conflict {
		return nil
	}
	_, _ = s.o.Store.UpdateTask(ctx, t.ID, task.Change{From: []task.Status{task.Claimed}, To: task.Queued, Time: s.o.Clock.Now(),
		Owner: s.o.Owner, Requeue: true, Refund: true,
		Reason: "the store did not take that its agent runs; the agent was stopped: queued again, the attempt not counted"})
	return fmt.Errorf("mark task %s running: %w", t.ID, markErr)
}
