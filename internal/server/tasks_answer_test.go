package server_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/server"
)

// answeringAgents is agent control whose one task waits on a call.
type answeringAgents struct {
	server.AgentControl
	got []string
}

func (a *answeringAgents) Answer(_ context.Context, id string, approve, always bool, reason string) (string, error) {
	if id != "twaiting" {
		return "", &server.Refusal{Msg: "task " + id + "'s agent is working, not waiting: there is nothing to answer"}
	}
	verb := map[bool]string{true: "approve", false: "deny"}[approve]
	if always {
		verb += "-always"
	}
	a.got = append(a.got, verb+":"+reason)
	return "Bash `cat .env` (core.secrets:read-secret: …)", nil
}

// POST /api/tasks/{id}/approve|deny reach the agents' answerer (approve
// with always: true, deny never); a refusal
// is a 409 with its message; a daemon without tmux agents answers 501.
func TestTaskApproveDenyRoutes(t *testing.T) {
	ag := &answeringAgents{}
	r := newAPIRig(t, 10, server.Webhooks{}, func(o *server.Options) { o.Agents = ag })
	status, body, _ := r.do("POST", "/api/tasks/twaiting/approve", "", r.token, nil)
	var res server.AnswerResult
	if status != 200 || json.Unmarshal(body, &res) != nil || res.Answer != "approved" || !strings.Contains(res.Call, "cat .env") {
		t.Errorf("approve: %d %s", status, body)
	}
	status, body, _ = r.do("POST", "/api/tasks/twaiting/deny", `{"reason":"not here"}`, r.token, map[string]string{"Content-Type": "application/json"})
	if status != 200 || !strings.Contains(string(body), `"answer":"denied"`) {
		t.Errorf("deny: %d %s", status, body)
	}
	hdr := map[string]string{"Content-Type": "application/json"}
	status, body, _ = r.do("POST", "/api/tasks/twaiting/approve", `{"always":true}`, r.token, hdr)
	if status != 200 || !strings.Contains(string(body), `"always":true`) {
		t.Errorf("approve always: %d %s", status, body)
	}
	if status, body, _ := r.do("POST", "/api/tasks/twaiting/deny", `{"always":true}`, r.token, hdr); status != 400 || !strings.Contains(string(body), "approve only") {
		t.Errorf("deny always: %d %s", status, body)
	}
	if strings.Join(ag.got, ",") != "approve:,deny:not here,approve-always:" {
		t.Errorf("answers %q", ag.got)
	}
	if status, body, _ := r.do("POST", "/api/tasks/tbusy/approve", "", r.token, nil); status != 409 || !strings.Contains(string(body), "not waiting") {
		t.Errorf("refusal: %d %s", status, body)
	}
	if status, _, _ := r.do("POST", "/api/tasks/twaiting/approve", "", "", nil); status != 401 {
		t.Errorf("without a token: %d", status)
	}
	plain := newAPIRig(t, 10, server.Webhooks{})
	if status, _, _ := plain.do("POST", "/api/tasks/twaiting/deny", "", plain.token, nil); status != 501 {
		t.Errorf("no tmux agents: %d", status)
	}
}
