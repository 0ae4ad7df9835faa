package orchestrator

import (
	"context"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/task"
)

// A clean stop of the daemon (SIGTERM) is not a lost agent. An agent that
// outlives the daemon (tmux) is left working and reattached by the next
// start, with no new claim; one that cannot (headless) is stopped, and
// its task goes back to the queue with the attempt its claim counted
// given back, so restarting the daemon never brings a task nearer to
// failing with "lost N times".

// handBack is a Run that Shutdown may have stopped while it worked.
type handBack interface{ HandedBack() bool }

// handBack queues id again, the attempt refunded, when its run was
// stopped by Shutdown.
func (s *Scheduler) handBack(ctx context.Context, id string, r agent.Run) {
	hb, ok := r.(handBack)
	if !ok || !hb.HandedBack() {
		return
	}
	const why = "the daemon stopped cleanly and stopped the agent with it: queued again, the attempt not counted"
	_, err := s.o.Store.UpdateTask(ctx, id, task.Change{From: []task.Status{task.Claimed, task.Running, task.Paused}, To: task.Queued,
		Time: s.o.Clock.Now(), Reason: why, Requeue: true, Refund: true, Owner: s.o.Owner})
	if err != nil {
		// Left as it is, the next start's reconciliation queues it.
		s.o.Log.Error("hand back task", "task", id, "err", err)
		return
	}
	s.record(ctx, id, task.ActRequeue, why)
}
