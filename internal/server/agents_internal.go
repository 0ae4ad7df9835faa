package server

import (
	"errors"
	"net/http"

	"github.com/warden-dev/warden/internal/task"
)

// The loopback-only agent routes delegate to AgentControl (the agents
// feature); without it they answer 501.

func (s *Server) noAgents(w http.ResponseWriter) bool {
	if s.o.Agents == nil {
		writeError(w, http.StatusNotImplemented, "not_implemented", "this daemon runs tasks headless; agent control is not available")
		return true
	}
	return false
}

func (s *Server) agentError(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, task.ErrNotFound):
		writeError(w, http.StatusNotFound, "not_found", err.Error())
	case errors.Is(err, task.ErrConflict):
		writeError(w, http.StatusConflict, "conflict", err.Error())
	default:
		writeError(w, http.StatusInternalServerError, "internal", err.Error())
	}
}

func (s *Server) spawnAgent(w http.ResponseWriter, r *http.Request) {
	var req SpawnRequest
	if !decodeBody(w, r, s.o.BodyLimit, &req) {
		return
	}
	if !task.ValidID(req.TaskID) {
		writeError(w, http.StatusBadRequest, "bad_request", "task_id is missing or malformed")
		return
	}
	if s.noAgents(w) {
		return
	}
	a, err := s.o.Agents.Spawn(r.Context(), req)
	if err != nil {
		s.agentError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, a)
}

// KillRequest is the body of POST /internal/kill-agent.
type KillRequest struct {
	TaskID string `json:"task_id"`
}

func (s *Server) killAgent(w http.ResponseWriter, r *http.Request) {
	var req KillRequest
	if !decodeBody(w, r, s.o.BodyLimit, &req) {
		return
	}
	if !task.ValidID(req.TaskID) {
		writeError(w, http.StatusBadRequest, "bad_request", "task_id is missing or malformed")
		return
	}
	if s.noAgents(w) {
		return
	}
	if err := s.o.Agents.Kill(r.Context(), req.TaskID); err != nil {
		s.agentError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"task_id": req.TaskID, "killed": true})
}

func (s *Server) agentStatus(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if bad := unknownParams(q, "task_id"); bad != "" {
		writeError(w, http.StatusBadRequest, "bad_request", bad)
		return
	}
	id := q.Get("task_id")
	if !task.ValidID(id) {
		writeError(w, http.StatusBadRequest, "bad_request", "?task_id= is missing or malformed")
		return
	}
	if s.noAgents(w) {
		return
	}
	a, err := s.o.Agents.Status(r.Context(), id)
	if err != nil {
		s.agentError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, a)
}
