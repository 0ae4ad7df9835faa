package server

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/warden-dev/warden/internal/task"
)

// The review loop over the API: POST /api/tasks/{id}/reply sends a
// person's follow-up to a task's agent (typed into its prompt while it
// runs; a follow-up run on the same branch once it finished), and POST
// /api/tasks/{id}/merge merges its branch into the base or opens a pull
// request. `warden task reply|merge` and the dashboard use them.

// TaskReviewer is the optional part of AgentControl that replies to
// agents and merges their branches (the tmux agents).
type TaskReviewer interface {
	Reply(ctx context.Context, taskID, text string) (ReplyResult, error)
	Merge(ctx context.Context, taskID string, req MergeRequest) (MergeResult, error)
}

// ReplyRequest is the body of POST /api/tasks/{id}/reply.
type ReplyRequest struct {
	Text string `json:"text"`
}

// ReplyResult says how the reply went to the agent.
type ReplyResult struct {
	Task string `json:"task"`
	// Delivered is "typed" (into the running agent's prompt) or
	// "follow-up" (the finished task is queued again for a new run on
	// its branch).
	Delivered string      `json:"delivered"`
	Status    task.Status `json:"status"`
}

// MergeRequest is the optional body of POST /api/tasks/{id}/merge.
type MergeRequest struct {
	PR     bool `json:"pr,omitempty"`      // open a pull request with gh instead
	DryRun bool `json:"dry_run,omitempty"` // say what would happen, change nothing
}

// MergeResult is what the merge did (or would do).
type MergeResult struct {
	Task     string   `json:"task"`
	Method   string   `json:"method"` // merge or pr
	Branch   string   `json:"branch"`
	Base     string   `json:"base"`
	Commits  []string `json:"commits,omitempty"`
	Files    []string `json:"files,omitempty"`
	Checkout string   `json:"checkout,omitempty"`
	Commit   string   `json:"commit,omitempty"`
	Remote   string   `json:"remote,omitempty"`
	Repo     string   `json:"repo,omitempty"`
	URL      string   `json:"url,omitempty"`
	DryRun   bool     `json:"dry_run,omitempty"`
}

// maxReplyBody bounds a reply's body: the text's own limit is the
// agent's (8 KiB), checked there with a message.
const maxReplyBody = 64 << 10

func (s *Server) reviewer(w http.ResponseWriter) (TaskReviewer, bool) {
	rv, ok := s.o.Agents.(TaskReviewer)
	if !ok {
		writeError(w, http.StatusNotImplemented, "not_implemented", "this daemon runs no tmux agents (agent.runner = \"tmux\"): no agent to reply to, no branch to merge")
	}
	return rv, ok
}

func (s *Server) replyTask(w http.ResponseWriter, r *http.Request) {
	id, ok := taskID(w, r)
	if !ok {
		return
	}
	var req ReplyRequest
	if !decodeBody(w, r, maxReplyBody, &req) {
		return
	}
	if strings.TrimSpace(req.Text) == "" {
		writeError(w, http.StatusBadRequest, "bad_request", "text is empty: say what the agent should do")
		return
	}
	rv, ok := s.reviewer(w)
	if !ok {
		return
	}
	res, err := rv.Reply(r.Context(), id, req.Text)
	if reviewError(w, id, err) {
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) mergeTask(w http.ResponseWriter, r *http.Request) {
	id, ok := taskID(w, r)
	if !ok {
		return
	}
	var req MergeRequest
	if r.ContentLength != 0 && !decodeBody(w, r, s.o.BodyLimit, &req) {
		return
	}
	rv, ok := s.reviewer(w)
	if !ok {
		return
	}
	res, err := rv.Merge(r.Context(), id, req)
	if reviewError(w, id, err) {
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// reviewError answers err (false when there is none): an unknown task is
// 404, a refusal 409 with what to do.
func reviewError(w http.ResponseWriter, id string, err error) bool {
	var ref *Refusal
	switch {
	case err == nil:
		return false
	case errors.Is(err, task.ErrNotFound):
		writeError(w, http.StatusNotFound, "not_found", "no task "+id)
	case errors.As(err, &ref):
		writeError(w, http.StatusConflict, "conflict", ref.Msg)
	default:
		writeError(w, http.StatusInternalServerError, "internal", err.Error())
	}
	return true
}
