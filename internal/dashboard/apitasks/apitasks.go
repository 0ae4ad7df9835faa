// Package apitasks gives the dashboard its tasks from the daemon: the
// board, a task's story, add and cancel through the task service
// (internal/tasksvc: the same validation, queue limit, scheduler wake-up
// and metrics as POST /api/tasks), once the server has checked the
// logged-in user's token for the scope the API would ask; reply, merge,
// approve and deny through the REST handler called in process, as that
// user (they drive the agents, internal/agent).
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
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/task"
	"github.com/warden-dev/warden/internal/tasksvc"
)

// Backend is what the adapter needs of the daemon's server
// (server.Server).
type Backend interface {
	// ServeHTTP answers the API routes the agent actions use.
	http.Handler
	// TaskService is the queue's rules.
	TaskService() *tasksvc.Service
	// Allow says why token may not act with scope on the queue (nil:
	// it may), in the API's words.
	Allow(ctx context.Context, token, scope string) error
}

// Tasks implements dashboard.Tasks over the task service.
type Tasks struct {
	api Backend
	// Project is the project of a task added without one.
	Project string
}

// New wraps the daemon's server.
func New(api Backend, defaultProject string) *Tasks {
	return &Tasks{api: api, Project: defaultProject}
}

// service is the task service once the logged-in user's token may act
// with scope.
func (a *Tasks) service(ctx context.Context, scope string) (*tasksvc.Service, error) {
	tok := dashboard.RequestToken(ctx)
	if tok == "" {
		return nil, errors.New("not logged in")
	}
	if err := a.api.Allow(ctx, tok, scope); err != nil {
		return nil, err
	}
	return a.api.TaskService(), nil
}

// boardTask is what the board shows of t.
func boardTask(t *task.Task) dashboard.Task {
	return apiTask{ID: t.ID, Project: t.Project, Prompt: t.Prompt, Priority: t.Priority, Status: string(t.Status),
		Result: t.Result, Error: t.Error, AgentState: t.AgentState, AgentNote: t.AgentNote, CreatedAt: t.CreatedAt,
		UpdatedAt: t.UpdatedAt, Criteria: t.Criteria, Allow: t.Allow, Deny: t.Deny}.task()
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

// List implements dashboard.Tasks: the newest 500.
func (a *Tasks) List(ctx context.Context) ([]dashboard.Task, error) {
	svc, err := a.service(ctx, store.ScopeRead)
	if err != nil {
		return nil, err
	}
	ts, err := svc.List(ctx, task.Filter{Limit: 500})
	if err != nil {
		return nil, err
	}
	out := make([]dashboard.Task, 0, len(ts))
	for i := range ts {
		out = append(out, boardTask(&ts[i]))
	}
	return out, nil
}

// Add implements dashboard.Tasks.
func (a *Tasks) Add(ctx context.Context, n dashboard.NewTask) (dashboard.Task, error) {
	svc, err := a.service(ctx, store.ScopeTasks)
	if err != nil {
		return dashboard.Task{}, err
	}
	if n.Project == "" {
		n.Project = a.Project
	}
	t, _, err := svc.Add(ctx, tasksvc.Request{Prompt: n.Prompt, Project: n.Project, Priority: n.Priority, Source: "dashboard",
		Agent: n.Agent, Criteria: n.Criteria, Allow: n.Allow, Deny: n.Deny})
	if err != nil {
		return dashboard.Task{}, err
	}
	return boardTask(t), nil
}

// Cancel implements dashboard.Tasks.
func (a *Tasks) Cancel(ctx context.Context, id string) error {
	svc, err := a.service(ctx, store.ScopeTasks)
	if err != nil {
		return err
	}
	_, err = svc.Cancel(ctx, id, "cancelled through the API: from the dashboard")
	return err
}

// Story implements dashboard.Tasks: the task, its transitions and the
// scheduler's decisions in time order. Nil when there is no such task.
func (a *Tasks) Story(ctx context.Context, id string) (*dashboard.TaskStory, error) {
	// A malformed id ("a/b" from /tasks/a%2fb, "..") names no task: the
	// page's 404.
	if !task.ValidID(id) {
		return nil, nil
	}
	svc, err := a.service(ctx, store.ScopeRead)
	if err != nil {
		return nil, err
	}
	d, err := svc.Get(ctx, id)
	if errors.Is(err, tasksvc.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	st := &dashboard.TaskStory{Task: boardTask(d.Task)}
	for _, h := range d.History {
		note := h.Reason
		if h.From != "" {
			note = "from " + string(h.From) + ": " + h.Reason
		}
		st.Steps = append(st.Steps, dashboard.TaskStep{At: h.Time, State: string(h.To), Note: note})
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
