package task

import (
	"context"
	"errors"
	"time"
)

// Errors the store returns; callers test with errors.Is.
var (
	ErrNotFound  = errors.New("no such task")
	ErrQueueFull = errors.New("the task queue is full")
	// ErrConflict: the task is not in a status the change starts from
	// (cancelling a finished task, finishing a cancelled one).
	ErrConflict = errors.New("task is not in a status this change applies to")
	// ErrKeyReused: an idempotency key already names a task with another
	// project or prompt.
	ErrKeyReused = errors.New("idempotency key already used for a different task")
)

// Filter selects tasks; zero fields match everything.
type Filter struct {
	Statuses []Status
	Project  string
	// Limit caps the result (newest first); 0 means the store's default.
	Limit int
}

// Change is one update of a task, applied only when the task's status is
// one of From (empty From: any status). To "" keeps the status (an agent
// state update); otherwise the move is recorded as a Transition with
// Reason. Nil pointers leave fields alone.
type Change struct {
	From       []Status
	To         Status
	Reason     string
	Time       time.Time
	Result     *string
	Error      *string
	AgentState *string
	AgentRef   *string
	AgentNote  *string
	// Requeue clears the claim (owner, claimed_at, started_at) when the
	// task goes back to queued.
	Requeue bool
	// Refund, with Requeue, gives back the attempt the claim counted:
	// the daemon stopped the agent itself (a clean shutdown), so the
	// task was not lost and must not come nearer to serve.max_attempts.
	Refund bool
	// Owner fences the change: when set, it applies only while the task
	// is claimed by Owner (ErrConflict otherwise). In a pool a worker
	// that stalled past its heartbeats finds its task recovered by a peer
	// and must not overwrite what the task became since.
	Owner string
	// NewOwner, when set, hands the claim to another owner: a restarted
	// daemon taking over the agents its previous process left running.
	NewOwner string
}

// Store keeps the queue. The orchestrator declares what it needs and the
// store (internal/store/sqlite) implements it; every method is one
// transaction.
type Store interface {
	// CreateTask inserts t (ID, Status and times set by the caller) unless
	// queueLimit tasks are already queued (ErrQueueFull; 0 = no limit).
	// With an idempotency key that names a task already, nothing is
	// inserted and that task comes back with created = false
	// (ErrKeyReused when its project, prompt or rules differ).
	CreateTask(ctx context.Context, t *Task, queueLimit int) (got *Task, created bool, err error)
	// Task loads one task (ErrNotFound).
	Task(ctx context.Context, id string) (*Task, error)
	// Tasks lists tasks, newest first.
	Tasks(ctx context.Context, f Filter) ([]Task, error)
	// CountTasks counts tasks by status.
	CountTasks(ctx context.Context) (map[Status]int, error)
	// ClaimNext moves the first queued task (highest priority, then oldest)
	// whose System is "" or system to claimed for owner, counts the
	// attempt and records the transition; nil when none is queued.
	ClaimNext(ctx context.Context, owner, system, reason string, now time.Time) (*Task, error)
	// UpdateTask applies c to task id (ErrNotFound, ErrConflict).
	UpdateTask(ctx context.Context, id string, c Change) (*Task, error)
	// History is the task's transitions, oldest first.
	History(ctx context.Context, id string) ([]Transition, error)
	// RecordDecision appends a scheduling decision.
	RecordDecision(ctx context.Context, d Decision) error
	// Decisions lists decisions about task id ("" = the queue-wide ones)
	// with id > after, oldest first, at most limit (0 = all).
	Decisions(ctx context.Context, taskID string, after int64, limit int) ([]Decision, error)
}
