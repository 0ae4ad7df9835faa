package server

import (
	"context"
	"errors"
	"net/http"
)

// A task's agent waits when warden's policy answered one of its tool
// calls with ask; POST /api/tasks/{id}/approve and /deny answer that call
// from anywhere the API reaches (the dashboard, scripts) as `warden task
// approve|deny` does on the daemon's machine.

// PendingAnswerer is the optional part of AgentControl that answers a
// waiting agent's pending call; call describes it. always (with approve)
// also allows the same kind of call for the rest of the task.
type PendingAnswerer interface {
	Answer(ctx context.Context, taskID string, approve, always bool, reason string) (call string, err error)
}

// Refusal is an answer the task's agent is in no state to take (not
// waiting, no pending call, its dialog not on screen): 409 with Msg.
type Refusal struct{ Msg string }

func (r *Refusal) Error() string { return r.Msg }

// AnswerRequest is the optional body of POST /api/tasks/{id}/approve
// (always: allow the same kind of call for the rest of the task) and
// /deny (reason: told to the agent).
type AnswerRequest struct {
	Reason string `json:"reason,omitempty"`
	Always bool   `json:"always,omitempty"`
}

// AnswerResult says what was answered.
type AnswerResult struct {
	Task   string `json:"task"`
	Answer string `json:"answer"` // approved or denied
	Call   string `json:"call"`
	Always bool   `json:"always,omitempty"`
}

func (s *Server) approveTask(w http.ResponseWriter, r *http.Request) { s.answerTask(w, r, true) }
func (s *Server) denyTask(w http.ResponseWriter, r *http.Request)    { s.answerTask(w, r, false) }

func (s *Server) answerTask(w http.ResponseWriter, r *http.Request, approve bool) {
	id, ok := taskID(w, r)
	if !ok {
		return
	}
	var req AnswerRequest
	if r.ContentLength != 0 && !decodeBody(w, r, s.o.BodyLimit, &req) {
		return
	}
	switch {
	case len(req.Reason) > 1000:
		writeError(w, http.StatusBadRequest, "bad_request", "reason is longer than 1000 bytes")
		return
	case req.Always && !approve:
		writeError(w, http.StatusBadRequest, "bad_request", "always applies to approve only; a denial is for this call")
		return
	}
	ans, ok := s.o.Agents.(PendingAnswerer)
	if !ok {
		writeError(w, http.StatusNotImplemented, "not_implemented", "this daemon runs no tmux agents (agent.runner = \"tmux\"), so there is no pending call to answer")
		return
	}
	call, err := ans.Answer(r.Context(), id, approve, req.Always, req.Reason)
	var ref *Refusal
	switch {
	case errors.As(err, &ref):
		writeError(w, http.StatusConflict, "conflict", ref.Msg)
	case err != nil:
		writeError(w, http.StatusInternalServerError, "internal", err.Error())
	default:
		res := AnswerResult{Task: id, Answer: "approved", Call: call, Always: req.Always}
		if !approve {
			res.Answer = "denied"
		}
		writeJSON(w, http.StatusOK, res)
	}
}
