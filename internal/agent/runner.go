package agent

import (
	"context"

	"github.com/warden-dev/warden/internal/task"
)

// Runner starts the agents that work on tasks. The scheduler picks the
// runner whose Name is the task's Agent ("" = the default runner). The
// default is headless `claude -p` (Headless, runner_headless.go); the
// tmux/worktree agents are TmuxRunner (runner_tmux.go). The scheduler
// (internal/orchestrator) only knows this interface.
type Runner interface {
	// Name is the agent kind this runner runs ("claude-p", "tmux", …).
	Name() string
	// Start launches t's agent and returns once it is started; the work
	// goes on in the background until the Run is Done.
	Start(ctx context.Context, t *task.Task) (Run, error)
	// Reattach is called when the daemon starts, for each task a previous
	// daemon left claimed, running or paused. It returns the agent still
	// working on t (found through t.AgentRef) so the scheduler watches it
	// again, or nil after cleaning up whatever is left of it (a stray
	// process is killed), in which case the task is queued again.
	Reattach(ctx context.Context, t *task.Task) (Run, error)
}

// Run is one live agent.
type Run interface {
	// Ref says where the agent runs ("pid:1234", a tmux window); it is
	// stored as the task's AgentRef for Reattach.
	Ref() string
	// Done is closed when the agent has ended (and was reaped).
	Done() <-chan struct{}
	// Outcome is how it ended; valid once Done is closed.
	Outcome() Outcome
	// Stop ends the agent (the task was cancelled) and returns once it is
	// gone or ctx ends.
	Stop(ctx context.Context) error
	// Shutdown is called when the daemon stops: an agent that cannot
	// outlive the daemon is stopped (its task is reconciled at the next
	// start); one that can (tmux) is left alone.
	Shutdown(ctx context.Context) error
}

// Outcome is how a run ended.
type Outcome struct {
	// Status is task.Done or task.Failed.
	Status task.Status
	// Result is what the agent reported (its final message).
	Result string
	// Error says why it failed.
	Error string
}
