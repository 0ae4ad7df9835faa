package server_test

import (
	"context"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/server"
	"github.com/warden-dev/warden/internal/task"
)

// reviewingAgents is agent control with one running task (treply), one
// finished (tdone) and one cancelled (tgone).
type reviewingAgents struct {
	server.AgentControl
	got []string
}

func (a *reviewingAgents) Reply(_ context.Context, id, text string) (server.ReplyResult, error) {
	a.got = append(a.got, "reply "+id+" "+text)
	switch id {
	case "treply":
		return server.ReplyResult{Task: id, Delivered: "typed", Status: task.Running}, nil
	case "tdone":
		return server.ReplyResult{Task: id, Delivered: "follow-up", Status: task.Queued}, nil
	case "tgone":
		return server.ReplyResult{}, &server.Refusal{Msg: "task tgone was cancelled: its worktree is removed"}
	}
	return server.ReplyResult{}, task.ErrNotFound
}

func (a *reviewingAgents) Merge(_ context.Context, id string, req server.MergeRequest) (server.MergeResult, error) {
	a.got = append(a.got, "merge "+id)
	if id == "tconflict" {
		return server.MergeResult{}, &server.Refusal{Msg: "conflicts in app.txt"}
	}
	return server.MergeResult{Task: id, Method: map[bool]string{true: "pr", false: "merge"}[req.PR], DryRun: req.DryRun}, nil
}

// POST /api/tasks/{id}/reply and /merge reach the agents' reviewer; an
// empty reply is a 400, an unknown task 404, a refusal 409 with its
// message, a daemon without tmux agents 501.
func TestTaskReplyMergeRoutes(t *testing.T) {
	ag := &reviewingAgents{}
	r := newAPIRig(t, 10, server.Webhooks{}, func(o *server.Options) { o.Agents = ag })
	hdr := map[string]string{"Content-Type": "application/json"}
	for _, c := range []struct {
		path, body string
		status     int
		want       string
	}{
		{"/api/tasks/treply/reply", `{"text":"also add a test"}`, 200, `"delivered":"typed"`},
		{"/api/tasks/tdone/reply", `{"text":"rename it"}`, 200, `"delivered":"follow-up"`},
		{"/api/tasks/tgone/reply", `{"text":"x"}`, 409, "worktree is removed"},
		{"/api/tasks/tnone/reply", `{"text":"x"}`, 404, "no task tnone"},
		{"/api/tasks/treply/reply", `{"text":"  "}`, 400, "text is empty"},
		{"/api/tasks/treply/reply", ``, 400, ""},
		{"/api/tasks/tdone/merge", ``, 200, `"method":"merge"`},
		{"/api/tasks/tdone/merge", `{"pr":true,"dry_run":true}`, 200, `"method":"pr"`},
		{"/api/tasks/tconflict/merge", `{}`, 409, "conflicts in app.txt"},
		{"/api/tasks/tdone/merge", `{"force":true}`, 400, "force"},
	} {
		status, body, _ := r.do("POST", c.path, c.body, r.token, hdr)
		if status != c.status || !strings.Contains(string(body), c.want) {
			t.Errorf("POST %s %s: %d %s, want %d with %q", c.path, c.body, status, body, c.status, c.want)
		}
	}
	if got := strings.Join(ag.got, "|"); got != "reply treply also add a test|reply tdone rename it|reply tgone x|reply tnone x|merge tdone|merge tdone|merge tconflict" {
		t.Errorf("calls: %s", got)
	}
	plain := newAPIRig(t, 10, server.Webhooks{})
	if status, _, _ := plain.do("POST", "/api/tasks/t1/merge", "", plain.token, nil); status != 501 {
		t.Errorf("no tmux agents: %d", status)
	}
}
