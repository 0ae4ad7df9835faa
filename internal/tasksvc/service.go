// Package tasksvc owns the queue's rules: what a new task must look like,
// the queue's size, idempotency keys, the scheduler's wake-up, and
// cancelling. Every entry point that makes or changes tasks — the REST
// API, the dashboard, the webhooks, Telegram — calls this Service and
// turns its domain errors (errors.go) into its own answers, so the rules
// live once and outside HTTP (the package must not import net/http; a
// test checks).
package tasksvc

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/warden-dev/warden/internal/task"
)

// Scheduler is what the service asks of the scheduler.
type Scheduler interface {
	// Notify wakes it: a task was queued.
	Notify()
	// Cancel cancels a task (stopping its agent when one runs).
	Cancel(ctx context.Context, id, reason string) (*task.Task, error)
}

// Options are the service's dependencies.
type Options struct {
	Store     task.Store
	Scheduler Scheduler
	// QueueSize is how many tasks may wait (default 100).
	QueueSize int
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Created, when set, is told of each task made (metrics).
	Created func(t *task.Task)
	// Rejected, when set, is told why a task was refused by the queue
	// ("queue_full"; metrics).
	Rejected func(reason string)
}

// Service is the task queue's rules over a store.
type Service struct{ o Options }

// New builds the service.
func New(o Options) (*Service, error) {
	if o.Store == nil || o.Scheduler == nil {
		return nil, errors.New("tasksvc: a store and a scheduler are required")
	}
	if o.QueueSize <= 0 {
		o.QueueSize = 100
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Service{o: o}, nil
}

// Request is a task to queue.
type Request struct {
	Project  string
	Prompt   string
	Priority int
	// IdempotencyKey: a retry with the same key returns the task it made
	// instead of making another.
	IdempotencyKey string
	// System pins the task to one worker of a pool; Agent names its
	// runner; Source says which entry point made it ("api", "dashboard",
	// "github"…).
	System, Agent, Source string
	// Criteria, Allow and Deny are the task's own completion criteria
	// and operations (internal/task/rules.go).
	Criteria, Allow, Deny []string
	// Profile names a set of operations (task.Profiles) added to Allow
	// and Deny.
	Profile string
}

// Add validates and queues a task. created is false when the idempotency
// key named a task already (that task comes back). Errors: *InvalidError
// (ErrInvalid), ErrQueueFull, ErrKeyReused, or the store's.
func (s *Service) Add(ctx context.Context, req Request) (t *task.Task, created bool, err error) {
	now := s.o.Now().UTC()
	// Before Clean: Clean would read "/p\x00/.." as a directory and drop it.
	if i := strings.IndexFunc(req.Project, unicode.IsControl); i >= 0 {
		return nil, false, &InvalidError{Field: "project",
			Msg: fmt.Sprintf("project %q holds a control character at byte %d; give the project directory's path as it is", req.Project, i)}
	}
	if req.Project != "" {
		req.Project = filepath.Clean(req.Project)
	}
	nt := &task.Task{ID: task.NewID(now), Project: req.Project, Prompt: req.Prompt, Priority: req.Priority,
		Status: task.Queued, Source: req.Source, IdempotencyKey: req.IdempotencyKey, System: req.System,
		Agent: req.Agent, Criteria: req.Criteria, Allow: req.Allow, Deny: req.Deny, CreatedAt: now, UpdatedAt: now}
	if err := nt.WithProfile(req.Profile); err != nil {
		return nil, false, &InvalidError{Field: "profile", Msg: err.Error()}
	}
	if err := nt.Check(); err != nil {
		return nil, false, invalid(err)
	}
	switch {
	case len(req.Source) > 40, len(req.System) > 200, len(req.Agent) > 40:
		return nil, false, &InvalidError{Field: longest(req), Msg: "source, system or agent too long (40, 200, 40 bytes)"}
	}
	got, created, err := s.o.Store.CreateTask(ctx, nt, s.o.QueueSize)
	switch {
	case errors.Is(err, task.ErrQueueFull):
		if s.o.Rejected != nil {
			s.o.Rejected("queue_full")
		}
		return nil, false, fmt.Errorf("%w; wait for tasks to finish or cancel some", err)
	case errors.Is(err, task.ErrKeyReused):
		return nil, false, fmt.Errorf("%w; use a new key for a new task", err)
	case err != nil:
		return nil, false, fmt.Errorf("could not store the task: %w", err)
	}
	if created {
		if s.o.Created != nil {
			s.o.Created(got)
		}
		s.o.Scheduler.Notify()
	}
	return got, created, nil
}

// longest names the first of source, system and agent over its limit.
func longest(req Request) string {
	switch {
	case len(req.Source) > 40:
		return "source"
	case len(req.System) > 200:
		return "system"
	}
	return "agent"
}

// Cancel cancels task id with reason (recorded in its history). Errors:
// *NotFoundError (ErrNotFound), ErrWrongStatus when it has finished.
func (s *Service) Cancel(ctx context.Context, id, reason string) (*task.Task, error) {
	if !task.ValidID(id) {
		return nil, &NotFoundError{ID: id}
	}
	t, err := s.o.Scheduler.Cancel(ctx, id, reason)
	switch {
	case errors.Is(err, task.ErrNotFound):
		return nil, &NotFoundError{ID: id}
	case errors.Is(err, task.ErrConflict):
		return nil, fmt.Errorf("%w; only queued, claimed, running or paused tasks can be cancelled", err)
	}
	return t, err
}

// List lists tasks, newest first (never nil).
func (s *Service) List(ctx context.Context, f task.Filter) ([]task.Task, error) {
	ts, err := s.o.Store.Tasks(ctx, f)
	if ts == nil && err == nil {
		ts = []task.Task{}
	}
	return ts, err
}

// Detail is one task and its story.
type Detail struct {
	Task      *task.Task        `json:"task"`
	History   []task.Transition `json:"history"`
	Decisions []task.Decision   `json:"decisions"`
}

// Get loads task id with its transitions and the scheduler's decisions
// about it (*NotFoundError when there is none). The story is best effort:
// a task whose history cannot be read still comes back.
func (s *Service) Get(ctx context.Context, id string) (*Detail, error) {
	if !task.ValidID(id) {
		return nil, &NotFoundError{ID: id}
	}
	t, err := s.o.Store.Task(ctx, id)
	if errors.Is(err, task.ErrNotFound) {
		return nil, &NotFoundError{ID: id}
	}
	if err != nil {
		return nil, err
	}
	d := &Detail{Task: t, History: []task.Transition{}, Decisions: []task.Decision{}}
	if h, err := s.o.Store.History(ctx, id); err == nil && h != nil {
		d.History = h
	}
	if ds, err := s.o.Store.Decisions(ctx, id, 0, 0); err == nil && ds != nil {
		d.Decisions = ds
	}
	return d, nil
}
