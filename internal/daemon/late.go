package daemon

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/warden-dev/warden/internal/orchestrator"
	"github.com/warden-dev/warden/internal/server"
	"github.com/warden-dev/warden/internal/store/ship"
	"github.com/warden-dev/warden/internal/task"
)

// A pool's daemon comes up before its shared store answers: hooks, the
// event record, the dashboard and the API's reads serve from the local
// store at once, while what only the shared store may hold waits for it
// (waitingFor). When it answers, the daemon builds its pool parts on it
// and switches the HTTP handler over, without a restart.

// waitingFor is what does not run until the shared store answers, and
// why: a local stand-in would diverge from the pool.
var waitingFor = []string{
	"task queue (claiming, queueing, cancelling: a local queue would diverge from the pool's)",
	"scheduler and agents",
	"webhooks (they queue tasks)",
	"pool ledger (shared pacing figures and the usage poll lease)",
	"systems heartbeat",
	"API tokens other than this machine's (they live in the shared store)",
}

// sharedWait tracks the shared store from start-up until it answers: the
// state /health, /health/db and the dashboard show.
type sharedWait struct {
	mu    sync.Mutex
	state server.SharedState
	tries int
	reads *eventReads
}

func newSharedWait(where string, reads *eventReads, now time.Time) *sharedWait {
	return &sharedWait{reads: reads, state: server.SharedState{State: server.Waiting, Where: where, Since: now.UTC(), Waiting: waitingFor}}
}

// failed records one failed attempt.
func (w *sharedWait) failed(err error) {
	w.mu.Lock()
	w.tries++
	w.state.Error, w.state.Permanent = err.Error(), ship.Permanent(err)
	where := w.state.Where
	w.mu.Unlock()
	w.reads.waiting(where, err)
}

// up records that the shared store answers.
func (w *sharedWait) up(where string, now time.Time) {
	w.mu.Lock()
	w.state = server.SharedState{State: "up", Where: where, Since: now.UTC()}
	w.mu.Unlock()
}

// State is a copy of the state now (server.Options.Shared).
func (w *sharedWait) State() *server.SharedState {
	w.mu.Lock()
	defer w.mu.Unlock()
	st := w.state
	return &st
}

// check is the "shared" part of /health/db while waiting: down, with the
// last error and what waits.
func (w *sharedWait) check(context.Context) (any, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	d := map[string]any{"where": w.state.Where, "state": w.state.State, "since": w.state.Since, "tries": w.tries, "waiting": w.state.Waiting, "permanent": w.state.Permanent}
	if w.state.State != server.Waiting {
		return d, nil
	}
	msg := "not reachable yet"
	if w.state.Error != "" {
		msg += ": " + w.state.Error
	}
	return d, errors.New(msg)
}

// errWaiting is what the stand-ins below answer; the server's routes
// that need them answer 503 before they are reached.
var errWaiting = errors.New("the shared store (store.url / WARDEN_DATABASE_URL) is not reachable yet; the task queue waits for it")

// waitingTasks is the task queue while the shared store has not
// answered: every call fails, so nothing reads or writes a local queue
// by mistake (metrics skip the counts).
type waitingTasks struct{}

func (waitingTasks) CreateTask(context.Context, *task.Task, int) (*task.Task, bool, error) {
	return nil, false, errWaiting
}
func (waitingTasks) Task(context.Context, string) (*task.Task, error) { return nil, errWaiting }
func (waitingTasks) Tasks(context.Context, task.Filter) ([]task.Task, error) {
	return nil, errWaiting
}
func (waitingTasks) CountTasks(context.Context) (map[task.Status]int, error) {
	return nil, errWaiting
}
func (waitingTasks) ClaimNext(context.Context, string, string, string, time.Time) (*task.Task, error) {
	return nil, errWaiting
}
func (waitingTasks) UpdateTask(context.Context, string, task.Change) (*task.Task, error) {
	return nil, errWaiting
}
func (waitingTasks) History(context.Context, string) ([]task.Transition, error) {
	return nil, errWaiting
}
func (waitingTasks) RecordDecision(context.Context, task.Decision) error { return errWaiting }
func (waitingTasks) Decisions(context.Context, string, int64, int) ([]task.Decision, error) {
	return nil, errWaiting
}

// waitingScheduler stands for the scheduler, which does not run yet.
type waitingScheduler struct{ maxAgents int }

func (waitingScheduler) Notify() {}
func (waitingScheduler) Cancel(context.Context, string, string) (*task.Task, error) {
	return nil, errWaiting
}
func (s waitingScheduler) Status() orchestrator.SchedStatus {
	return orchestrator.SchedStatus{MaxAgents: s.maxAgents}
}

// switchHandler serves through the handler set last: the waiting
// server, then the pool's. Requests already running finish on the one
// they started on; the waiting dashboard's live streams, which would run
// on, are ended at the switch and their pages reload (switchToShared).
type switchHandler struct{ h atomic.Pointer[http.Handler] }

func (s *switchHandler) set(h http.Handler) { s.h.Store(&h) }

func (s *switchHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	(*s.h.Load()).ServeHTTP(w, r)
}
