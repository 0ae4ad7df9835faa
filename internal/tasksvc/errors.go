package tasksvc

import (
	"errors"
	"strings"

	"github.com/warden-dev/warden/internal/task"
)

// The service's errors are domain values, not status codes: each caller
// (the REST API, the dashboard, webhooks, Telegram) says them its own way.
// Test with errors.Is / errors.As; Error() is the whole message, already
// naming what to change.
var (
	// ErrInvalid: the request breaks a queue rule; *InvalidError says
	// which field and how to fix it. Nothing was stored.
	ErrInvalid = errors.New("invalid task")
	// ErrQueueFull: serve.queue_size tasks already wait.
	ErrQueueFull = task.ErrQueueFull
	// ErrKeyReused: the idempotency key already names a task with
	// another project, prompt or rules.
	ErrKeyReused = task.ErrKeyReused
	// ErrNotFound: no task has this id.
	ErrNotFound = task.ErrNotFound
	// ErrWrongStatus: the task is not in a status the change applies to
	// (cancelling a finished task).
	ErrWrongStatus = task.ErrConflict
)

// InvalidError is one broken queue rule.
type InvalidError struct {
	// Field is the request field at fault ("prompt", "project",
	// "priority", "idempotency_key", "profile", "criteria", "allow",
	// "deny", "source", "system", "agent").
	Field string
	// Msg says what is wrong and how to fix it.
	Msg string
}

func (e *InvalidError) Error() string        { return e.Msg }
func (e *InvalidError) Is(target error) bool { return target == ErrInvalid }

// invalid wraps a rule's message, naming the field it starts with (the
// task package's checks begin with the field: "prompt is empty; …").
func invalid(err error) *InvalidError {
	msg := err.Error()
	field := "task"
	for _, p := range []struct{ prefix, field string }{
		{"prompt", "prompt"}, {"project", "project"}, {"priority", "priority"},
		{"idempotency key", "idempotency_key"}, {"profile", "profile"},
		{"allow", "allow"}, {"deny", "deny"}, {"a criterion", "criteria"}, {"criterion", "criteria"},
		{"agent", "agent"},
	} {
		if strings.HasPrefix(msg, p.prefix) {
			field = p.field
			break
		}
	}
	if field == "task" && strings.Contains(msg, "criteria") {
		field = "criteria"
	}
	return &InvalidError{Field: field, Msg: msg}
}

// NotFoundError names the task that is not there.
type NotFoundError struct{ ID string }

func (e *NotFoundError) Error() string        { return "no task " + e.ID }
func (e *NotFoundError) Is(target error) bool { return target == ErrNotFound }
