package server

import (
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/warden-dev/warden/internal/task"
)

// TaskRequest is the body of POST /api/tasks.
type TaskRequest struct {
	Project  string `json:"project"`
	Prompt   string `json:"prompt"`
	Priority int    `json:"priority"`
	// IdempotencyKey (or the Idempotency-Key header): a retried POST with
	// the same key returns the task it made instead of making another.
	IdempotencyKey string `json:"idempotency_key,omitempty"`
	System         string `json:"system,omitempty"`
	Agent          string `json:"agent,omitempty"`
	Source         string `json:"source,omitempty"`
	// Criteria, Allow and Deny are the task's own completion criteria and
	// operations (internal/task/rules.go); the tmux agent runner enforces
	// them.
	Criteria []string `json:"criteria,omitempty"`
	Allow    []string `json:"allow,omitempty"`
	Deny     []string `json:"deny,omitempty"`
	// Profile names a set of operations (task.Profiles) added to Allow
	// and Deny; the task stores what it stands for.
	Profile string `json:"profile,omitempty"`
}

// TaskDetail is GET /api/tasks/{id}: the task and its story.
type TaskDetail struct {
	Task      *task.Task        `json:"task"`
	History   []task.Transition `json:"history"`
	Decisions []task.Decision   `json:"decisions"`
}

func (s *Server) createTask(w http.ResponseWriter, r *http.Request) {
	var req TaskRequest
	if !decodeBody(w, r, s.o.BodyLimit, &req) {
		return
	}
	if h := r.Header.Get("Idempotency-Key"); h != "" {
		if req.IdempotencyKey != "" && req.IdempotencyKey != h {
			writeError(w, http.StatusBadRequest, "bad_request", "Idempotency-Key header and idempotency_key field differ; send one")
			return
		}
		req.IdempotencyKey = h
	}
	if req.Source == "" {
		req.Source = "api"
	}
	t, created, status, code, msg := s.enqueue(r, req)
	if t == nil {
		writeError(w, status, code, msg)
		return
	}
	if created {
		w.Header().Set("Location", "/api/tasks/"+t.ID)
		writeJSON(w, http.StatusCreated, t)
		return
	}
	writeJSON(w, http.StatusOK, t)
}

// enqueue validates and stores a task for any entry point (API, webhooks);
// on failure t is nil and status, code and msg say why.
func (s *Server) enqueue(r *http.Request, req TaskRequest) (t *task.Task, created bool, status int, code, msg string) {
	now := s.o.Now().UTC()
	// Before Clean: Clean would read "/p\x00/.." as a directory and drop it.
	if i := strings.IndexFunc(req.Project, unicode.IsControl); i >= 0 {
		return nil, false, http.StatusBadRequest, "invalid_task",
			fmt.Sprintf("project %q holds a control character at byte %d; give the project directory's path as it is", req.Project, i)
	}
	if req.Project != "" {
		req.Project = filepath.Clean(req.Project)
	}
	nt := &task.Task{ID: task.NewID(now), Project: req.Project, Prompt: req.Prompt, Priority: req.Priority,
		Status: task.Queued, Source: req.Source, IdempotencyKey: req.IdempotencyKey, System: req.System,
		Agent: req.Agent, Criteria: req.Criteria, Allow: req.Allow, Deny: req.Deny, CreatedAt: now, UpdatedAt: now}
	if err := nt.WithProfile(req.Profile); err != nil {
		return nil, false, http.StatusBadRequest, "invalid_task", err.Error()
	}
	if err := nt.Check(); err != nil {
		return nil, false, http.StatusBadRequest, "invalid_task", err.Error()
	}
	if len(req.Source) > 40 || len(req.System) > 200 || len(req.Agent) > 40 {
		return nil, false, http.StatusBadRequest, "invalid_task", "source, system or agent too long (40, 200, 40 bytes)"
	}
	got, created, err := s.o.Tasks.CreateTask(r.Context(), nt, s.o.QueueSize)
	switch {
	case errors.Is(err, task.ErrQueueFull):
		s.metrics.rejected.WithLabelValues("queue_full").Inc()
		return nil, false, http.StatusTooManyRequests, "queue_full", err.Error() + "; wait for tasks to finish or cancel some"
	case errors.Is(err, task.ErrKeyReused):
		return nil, false, http.StatusConflict, "idempotency_key_reused", err.Error() + "; use a new key for a new task"
	case err != nil:
		s.o.Log.Error("create task", "err", err)
		return nil, false, http.StatusInternalServerError, "internal", "could not store the task: " + err.Error()
	}
	if created {
		s.metrics.created.WithLabelValues(req.Source).Inc()
		s.o.Scheduler.Notify()
	}
	return got, created, 0, "", ""
}

func (s *Server) listTasks(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if bad := unknownParams(q, "status", "project", "limit"); bad != "" {
		writeError(w, http.StatusBadRequest, "bad_request", bad)
		return
	}
	var f task.Filter
	if st := q.Get("status"); st != "" {
		for _, v := range strings.Split(st, ",") {
			if !task.Status(v).Valid() {
				writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("status %q is unknown; use one of %v", v, task.Statuses))
				return
			}
			f.Statuses = append(f.Statuses, task.Status(v))
		}
	}
	f.Project = q.Get("project")
	n, ok := limitParam(w, q.Get("limit"), 100, 1000)
	if !ok {
		return
	}
	f.Limit = n
	ts, err := s.o.Tasks.Tasks(r.Context(), f)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", err.Error())
		return
	}
	if ts == nil {
		ts = []task.Task{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"tasks": ts})
}

// taskID reads and checks {id}; ok is false when it already answered.
func taskID(w http.ResponseWriter, r *http.Request) (string, bool) {
	id := r.PathValue("id")
	if !task.ValidID(id) {
		writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("task id %q is malformed; ids look like t0a1b2c3d4e5f6g7 (warden task list)", id))
		return "", false
	}
	return id, true
}

func (s *Server) getTask(w http.ResponseWriter, r *http.Request) {
	id, ok := taskID(w, r)
	if !ok {
		return
	}
	t, err := s.o.Tasks.Task(r.Context(), id)
	if errors.Is(err, task.ErrNotFound) {
		writeError(w, http.StatusNotFound, "not_found", "no task "+id+"; list them with GET /api/tasks")
		return
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", err.Error())
		return
	}
	d := TaskDetail{Task: t, History: []task.Transition{}, Decisions: []task.Decision{}}
	if h, err := s.o.Tasks.History(r.Context(), id); err == nil && h != nil {
		d.History = h
	}
	if ds, err := s.o.Tasks.Decisions(r.Context(), id, 0, 0); err == nil && ds != nil {
		d.Decisions = ds
	}
	writeJSON(w, http.StatusOK, d)
}

// CancelRequest is the optional body of POST /api/tasks/{id}/cancel.
type CancelRequest struct {
	Reason string `json:"reason,omitempty"`
}

// taskAndReason reads a task action's id from the path and its optional
// body {"reason": …} of at most 1000 bytes (cancel's CancelRequest;
// approve and deny read AnswerRequest, which adds always); false once it
// has answered with the error.
func (s *Server) taskAndReason(w http.ResponseWriter, r *http.Request) (id, reason string, ok bool) {
	if id, ok = taskID(w, r); !ok {
		return "", "", false
	}
	var req CancelRequest
	if r.ContentLength != 0 && !decodeBody(w, r, s.o.BodyLimit, &req) {
		return "", "", false
	}
	if len(req.Reason) > 1000 {
		writeError(w, http.StatusBadRequest, "bad_request", "reason is longer than 1000 bytes")
		return "", "", false
	}
	return id, req.Reason, true
}

func (s *Server) cancelTask(w http.ResponseWriter, r *http.Request) {
	id, given, ok := s.taskAndReason(w, r)
	if !ok {
		return
	}
	reason := "cancelled through the API"
	if given != "" {
		reason += ": " + given
	}
	t, err := s.o.Scheduler.Cancel(r.Context(), id, reason)
	switch {
	case errors.Is(err, task.ErrNotFound):
		writeError(w, http.StatusNotFound, "not_found", "no task "+id)
	case errors.Is(err, task.ErrConflict):
		writeError(w, http.StatusConflict, "conflict", err.Error()+"; only queued, claimed, running or paused tasks can be cancelled")
	case err != nil:
		writeError(w, http.StatusInternalServerError, "internal", err.Error())
	default:
		writeJSON(w, http.StatusOK, t)
	}
}

// unknownParams names a query parameter the route does not take.
func unknownParams(q map[string][]string, known ...string) string {
	for k := range q {
		ok := false
		for _, n := range known {
			ok = ok || k == n
		}
		if !ok {
			return fmt.Sprintf("unknown query parameter %q; this route takes %s", k, strings.Join(known, ", "))
		}
	}
	return ""
}

// limitParam parses ?limit= (def when empty, 1..max).
func limitParam(w http.ResponseWriter, v string, def, max int) (int, bool) {
	if v == "" {
		return def, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > max {
		writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("limit %q: want a whole number from 1 to %d", v, max))
		return 0, false
	}
	return n, true
}
