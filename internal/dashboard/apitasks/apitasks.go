// Package apitasks gives the dashboard its tasks through the daemon's own
// REST API, called in process: the page's add and cancel go through the
// same handler as POST /api/tasks and /api/tasks/{id}/cancel — the same
// validation, queue limit (429), scheduler wake-up and metrics — as the
// logged-in user's token. It knows the API's JSON, not its Go types.
package apitasks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/warden-dev/warden/internal/dashboard"
	"github.com/warden-dev/warden/internal/task"
)

// Tasks implements dashboard.Tasks over the API handler.
type Tasks struct {
	api http.Handler
	// Project is the project of a task added without one.
	Project string
}

// New wraps the daemon's handler (server.Server).
func New(api http.Handler, defaultProject string) *Tasks {
	return &Tasks{api: api, Project: defaultProject}
}

// apiTask is the API's task JSON (the fields the board shows).
type apiTask struct {
	ID         string    `json:"id"`
	Project    string    `json:"project"`
	Prompt     string    `json:"prompt"`
	Priority   int       `json:"priority"`
	Status     string    `json:"status"`
	Result     string    `json:"result"`
	Error      string    `json:"error"`
	AgentState string    `json:"agent_state"`
	AgentNote  string    `json:"agent_note"`
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at"`
	CostUSD    float64   `json:"cost_usd"`
	DiffStat   string    `json:"diff_stat"`
	Criteria   []string  `json:"criteria"`
	Allow      []string  `json:"allow"`
	Deny       []string  `json:"deny"`
}

func (t apiTask) task() dashboard.Task {
	title := t.Prompt
	if i := bytes.IndexByte([]byte(title), '\n'); i >= 0 {
		title = title[:i]
	}
	if r := []rune(title); len(r) > 80 {
		title = string(r[:80]) + "…"
	}
	return dashboard.Task{ID: t.ID, Title: title, Prompt: t.Prompt, Project: t.Project, State: t.Status,
		Priority: t.Priority, Created: t.CreatedAt, Updated: t.UpdatedAt, CostUSD: t.CostUSD,
		Criteria: t.Criteria, Allow: t.Allow, Deny: t.Deny, AgentState: t.AgentState, AgentNote: t.AgentNote, Error: t.Error}
}

// apiError is the API's one error shape.
type apiError struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// statusError is an error answer of the API.
type statusError struct {
	status int
	msg    string
}

func (e *statusError) Error() string { return e.msg }

// recorder is the response of an in-process call.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}
func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(b)
}

// call runs one API request as the dashboard's user and decodes the
// answer into out; an error status becomes the API's message.
func (a *Tasks) call(ctx context.Context, method, path string, in, out any) error {
	tok := dashboard.RequestToken(ctx)
	if tok == "" {
		return errors.New("not logged in")
	}
	var body io.Reader = http.NoBody
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://warden.internal"+path, body)
	if err != nil {
		return err
	}
	req.RemoteAddr = "127.0.0.1:0"
	req.Header.Set("Authorization", "Bearer "+tok)
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := &recorder{header: http.Header{}}
	a.api.ServeHTTP(rec, req)
	if rec.status >= 400 {
		e := &statusError{status: rec.status, msg: fmt.Sprintf("%s %s: HTTP %d", method, path, rec.status)}
		var body apiError
		if json.Unmarshal(rec.body.Bytes(), &body) == nil && body.Error.Message != "" {
			e.msg = body.Error.Message
		}
		return e
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(rec.body.Bytes(), out); err != nil {
		return fmt.Errorf("%s %s: unreadable answer: %w", method, path, err)
	}
	return nil
}

// List implements dashboard.Tasks.
func (a *Tasks) List(ctx context.Context) ([]dashboard.Task, error) {
	var res struct {
		Tasks []apiTask `json:"tasks"`
	}
	if err := a.call(ctx, "GET", "/api/tasks?limit=500", nil, &res); err != nil {
		return nil, err
	}
	out := make([]dashboard.Task, 0, len(res.Tasks))
	for _, t := range res.Tasks {
		out = append(out, t.task())
	}
	return out, nil
}

// Add implements dashboard.Tasks: POST /api/tasks.
func (a *Tasks) Add(ctx context.Context, n dashboard.NewTask) (dashboard.Task, error) {
	if n.Project == "" {
		n.Project = a.Project
	}
	var t apiTask
	req := map[string]any{"prompt": n.Prompt, "project": n.Project, "priority": n.Priority, "source": "dashboard",
		"criteria": n.Criteria, "allow": n.Allow, "deny": n.Deny}
	if err := a.call(ctx, "POST", "/api/tasks", req, &t); err != nil {
		return dashboard.Task{}, err
	}
	return t.task(), nil
}

// Cancel implements dashboard.Tasks: POST /api/tasks/{id}/cancel.
func (a *Tasks) Cancel(ctx context.Context, id string) error {
	return a.call(ctx, "POST", "/api/tasks/"+url.PathEscape(id)+"/cancel",
		map[string]string{"reason": "from the dashboard"}, nil)
}

// Story implements dashboard.Tasks: GET /api/tasks/{id}, its transitions
// and the scheduler's decisions in time order. Nil when there is no such
// task.
func (a *Tasks) Story(ctx context.Context, id string) (*dashboard.TaskStory, error) {
	// A malformed id ("a/b" from /tasks/a%2fb, "..") names no task: the
	// page's 404, not an API call that answers 400 or a redirect (a 500).
	if !task.ValidID(id) {
		return nil, nil
	}
	var d struct {
		Task    *apiTask `json:"task"`
		History []struct {
			Time   time.Time `json:"time"`
			From   string    `json:"from"`
			To     string    `json:"to"`
			Reason string    `json:"reason"`
		} `json:"history"`
		Decisions []struct {
			Time   time.Time `json:"time"`
			Action string    `json:"action"`
			Reason string    `json:"reason"`
		} `json:"decisions"`
	}
	err := a.call(ctx, "GET", "/api/tasks/"+url.PathEscape(id), nil, &d)
	if err != nil {
		var se *statusError
		if errors.As(err, &se) && se.status == http.StatusNotFound {
			return nil, nil
		}
		return nil, err
	}
	if d.Task == nil {
		return nil, nil
	}
	st := &dashboard.TaskStory{Task: d.Task.task(), DiffStat: d.Task.DiffStat}
	for _, h := range d.History {
		note := h.Reason
		if h.From != "" {
			note = "from " + h.From + ": " + h.Reason
		}
		st.Steps = append(st.Steps, dashboard.TaskStep{At: h.Time, State: h.To, Note: note})
	}
	for _, dc := range d.Decisions {
		st.Steps = append(st.Steps, dashboard.TaskStep{At: dc.Time, State: "scheduler " + dc.Action, Note: dc.Reason})
	}
	// By time; a transition stays before the decision of the same moment.
	slices.SortStableFunc(st.Steps, func(a, b dashboard.TaskStep) int { return a.At.Compare(b.At) })
	if d.Task.Error != "" {
		st.Steps = append(st.Steps, dashboard.TaskStep{At: d.Task.UpdatedAt, State: "error", Note: d.Task.Error})
	}
	return st, nil
}

// Reply implements dashboard.TaskReview: POST /api/tasks/{id}/reply.
func (a *Tasks) Reply(ctx context.Context, id, text string) (string, error) {
	var res struct {
		Delivered string `json:"delivered"`
	}
	if err := a.call(ctx, "POST", "/api/tasks/"+url.PathEscape(id)+"/reply", map[string]string{"text": text}, &res); err != nil {
		return "", err
	}
	if res.Delivered == "typed" {
		return "reply sent to the running agent", nil
	}
	return "queued for a follow-up run on its branch", nil
}

// Merge implements dashboard.TaskReview: POST /api/tasks/{id}/merge.
func (a *Tasks) Merge(ctx context.Context, id string, pr bool) (string, error) {
	var res struct {
		Base, Commit, URL string
	}
	if err := a.call(ctx, "POST", "/api/tasks/"+url.PathEscape(id)+"/merge", map[string]bool{"pr": pr}, &res); err != nil {
		return "", err
	}
	if pr {
		return "pull request " + res.URL, nil
	}
	return "merged into " + res.Base, nil
}

// Answer implements dashboard.TaskAnswers: POST /api/tasks/{id}/approve or
// /deny with the reason; always approves the same kind of call for the
// rest of the task.
func (a *Tasks) Answer(ctx context.Context, id string, approve, always bool, reason string) (string, error) {
	verb := "approve"
	if !approve {
		verb = "deny"
	}
	var res struct {
		Call string `json:"call"`
	}
	body := map[string]any{"reason": reason}
	if always {
		body = map[string]any{"always": true}
	}
	err := a.call(ctx, "POST", "/api/tasks/"+url.PathEscape(id)+"/"+verb, body, &res)
	return res.Call, err
}
