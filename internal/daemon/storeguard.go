package daemon

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"time"

	"github.com/warden-dev/warden/internal/server"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/storeguard"
	"github.com/warden-dev/warden/internal/task"
)

// The daemon stops taking work when its store stops taking writes (see
// package storeguard): every write of the queue goes through guardedTasks,
// which refuses once a fault is latched, latches one when a write fails
// for a reason the store cannot recover from, and, for the local file,
// checks the file is still the one opened before a new task is
// acknowledged — a task written to a removed file would be lost after a
// 201. The scheduler's Gate, /health, /health/db and /api/systems (so
// `warden serve status`) report the fault; a file removed or replaced
// also stops the daemon with a non-zero exit (watchStoreFile).

// guardedTasks is store.Shared with the queue's writes guarded. file is
// true when the queue is the local SQLite file the guard watches; where
// names the store in a fault (the file, or the PostgreSQL server).
type guardedTasks struct {
	store.Shared
	g     *storeguard.Guard
	where string
	file  bool
}

func guardTasks(s store.Shared, g *storeguard.Guard, where string, file bool) store.Shared {
	if g == nil {
		return s
	}
	return guardedTasks{Shared: s, g: g, where: where, file: file}
}

func (s guardedTasks) CreateTask(ctx context.Context, t *task.Task, limit int) (*task.Task, bool, error) {
	if err := s.g.Refuse(); err != nil {
		return nil, false, err
	}
	got, created, err := s.Shared.CreateTask(ctx, t, limit)
	if err != nil {
		return nil, false, s.g.ObserveStore(s.where, err)
	}
	if s.file {
		// The row is committed, but to which file: only the one opened
		// counts (a removed one is read by nobody again).
		if err := s.g.CheckFile(); err != nil {
			return nil, false, err
		}
	}
	return got, created, nil
}

func (s guardedTasks) ClaimNext(ctx context.Context, owner, system, reason string, now time.Time) (*task.Task, error) {
	if err := s.g.Refuse(); err != nil {
		return nil, err
	}
	t, err := s.Shared.ClaimNext(ctx, owner, system, reason, now)
	return t, s.g.ObserveStore(s.where, err)
}

// UpdateTask and RecordDecision are about work under way: tried until the
// file is gone (RefuseGone), so a task finishing once space is freed is
// recorded.
func (s guardedTasks) UpdateTask(ctx context.Context, id string, c task.Change) (*task.Task, error) {
	if err := s.g.RefuseGone(); err != nil {
		return nil, err
	}
	t, err := s.Shared.UpdateTask(ctx, id, c)
	return t, s.g.ObserveStore(s.where, err)
}

func (s guardedTasks) RecordDecision(ctx context.Context, d task.Decision) error {
	if err := s.g.RefuseGone(); err != nil {
		return err
	}
	return s.g.ObserveStore(s.where, s.Shared.RecordDecision(ctx, d))
}

// newStoreGuard makes the daemon's guard over the local store file: a
// fault is logged once, with the fix; a file gone is also sent on gone,
// which stops the daemon.
func newStoreGuard(path string, log *slog.Logger) (*storeguard.Guard, <-chan storeguard.Fault, error) {
	gone := make(chan storeguard.Fault, 1)
	g := storeguard.New(path, func(f storeguard.Fault) {
		log.Error("the store cannot take writes: taking no new work", "store", f.Store, "reason", f.Reason, "fix", f.Fix, "gone", f.Gone)
		if f.Gone {
			select {
			case gone <- f:
			default:
			}
		}
	})
	return g, gone, g.WatchFile(path)
}

// teeWriter writes to every writer, whatever the others answer: on a full
// disk the log file refuses its lines, and they must still reach stderr
// (journald, a terminal). It reports the first error.
type teeWriter []io.Writer

func (t teeWriter) Write(p []byte) (int, error) {
	var first error
	for _, w := range t {
		if _, err := w.Write(p); err != nil && first == nil {
			first = err
		}
	}
	return len(p), first
}

// watchStoreFile looks at the store file every second until ctx ends;
// the first time it is removed or replaced (seen here or before a task
// was acknowledged), stop is called with the fault, so the daemon exits
// non-zero rather than keep serving a file nobody will open again.
//
// While the file is there, mark (when set) is called on each look: it
// keeps run/store.json up to date (storemark.go).
func watchStoreFile(ctx context.Context, g *storeguard.Guard, gone <-chan storeguard.Fault, every time.Duration, stop func(error), mark func()) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case f := <-gone:
			stop(errors.New(f.Message()))
			return
		case <-t.C:
			if g.CheckFile() == nil && mark != nil { // a fault comes back on gone
				mark()
			}
		}
	}
}

// storeWritesCheck is /health/db's "writes" part: down while a fault is
// latched, with the fault as its detail.
func storeWritesCheck(g *storeguard.Guard) server.DBCheck {
	return server.DBCheck{Name: "writes", Check: func(context.Context) (any, error) {
		if f := g.Current(); f != nil {
			return f, errors.New(f.Message())
		}
		return nil, nil
	}}
}
