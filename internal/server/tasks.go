package server

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/warden-dev/warden/internal/task"
	"github.com/warden-dev/warden/internal/tasksvc"
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
type TaskDetail = tasksvc.Detail

// request is the service's form of a TaskRequest.
func (req TaskRequest) request() tasksvc.Request {
	return tasksvc.Request{Project: req.Project, Prompt: req.Prompt, Priority: req.Priority,
		IdempotencyKey: req.IdempotencyKey, System: req.System, Agent: req.Agent, Source: req.Source,
		Criteria: req.Criteria, Allow: req.Allow, Deny: req.Deny, Profile: req.Profile}
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
	t, created, err := s.tasks.Add(r.Context(), req.request())
	if err != nil {
		s.writeTaskError(w, err, "")
		return
	}
	if created {
		w.Header().Set("Location", "/api/tasks/"+t.ID)
		writeJSON(w, http.StatusCreated, t)
		return
	}
	writeJSON(w, http.StatusOK, t)
}

// TaskService is the queue's rules the API answers with; the dashboard
// calls it directly.
func (s *Server) TaskService() *tasksvc.Service { return s.tasks }

// taskErrorStatus maps a task service error to the API's status and
// error code: the one place domain errors become HTTP.
func taskErrorStatus(err error) (status int, code string) {
	switch {
	case isStoreFault(err):
		return storeFaultStatus, storeFaultCode
	case errors.Is(err, tasksvc.ErrInvalid):
		return http.StatusBadRequest, "invalid_task"
	case errors.Is(err, tasksvc.ErrQueueFull):
		return http.StatusTooManyRequests, "queue_full"
	case errors.Is(err, tasksvc.ErrKeyReused):
		return http.StatusConflict, "idempotency_key_reused"
	case errors.Is(err, tasksvc.ErrNotFound):
		return http.StatusNotFound, "not_found"
	case errors.Is(err, tasksvc.ErrWrongStatus):
		return http.StatusConflict, "conflict"
	}
	return http.StatusInternalServerError, "internal"
}

// writeTaskError answers a task service error; hint is added to a
// not-found message (where to look instead).
func (s *Server) writeTaskError(w http.ResponseWriter, err error, hint string) {
	status, code := taskErrorStatus(err)
	msg := err.Error()
	if status == http.StatusInternalServerError {
		s.o.Log.Error("task service", "err", err)
	}
	if status == http.StatusNotFound && hint != "" {
		msg += "; " + hint
	}
	writeError(w, status, code, msg)
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
	ts, err := s.tasks.List(r.Context(), f)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", err.Error())
		return
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
	d, err := s.tasks.Get(r.Context(), id)
	if err != nil {
		s.writeTaskError(w, err, "list them with GET /api/tasks")
		return
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
	t, err := s.tasks.Cancel(r.Context(), id, reason)
	if err != nil {
		s.writeTaskError(w, err, "")
		return
	}
	writeJSON(w, http.StatusOK, t)
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
