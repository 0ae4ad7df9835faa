package server_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/server"
	"github.com/warden-dev/warden/internal/task"
)

type apiCase struct {
	name         string
	method, path string
	body         string
	tok          string // good (default), none, bad, revoked
	hdr          map[string]string
	status       int
	want         []string // substrings of the body
	writes       int      // tasks this request adds
}

// TestAPI is every route's scenarios, bad input first-class: for each,
// the status, the body (always the one error shape on failure) and how
// many tasks it wrote (none for a refusal).
func TestAPI(t *testing.T) {
	r := newAPIRig(t, 100, server.Webhooks{GitHubSecret: ghSecret, AlertProject: "x", TelegramSecret: tgSecret, TelegramProject: "x", TelegramChats: []int64{42}})
	ctx := context.Background()
	now := time.Now().UTC()
	for _, id := range []string{"tseed", "tdone"} {
		if _, _, err := r.st.CreateTask(ctx, &task.Task{ID: id, Project: r.project, Prompt: "seed", Status: task.Queued, CreatedAt: now, UpdatedAt: now}, 0); err != nil {
			t.Fatal(err)
		}
	}
	res := "ok"
	r.st.UpdateTask(ctx, "tdone", task.Change{To: task.Done, Result: &res, Reason: "test"})
	p := r.project
	valid := fmt.Sprintf(`{"project":%q,"prompt":"fix the flaky test","priority":3}`, p)
	issue := fmt.Sprintf(`{"action":"labeled","label":{"name":"warden"},"issue":{"number":7,"title":"Crash on start","body":"stack…","html_url":"https://github.com/acme/app/issues/7","labels":[{"name":"warden"}]},"repository":{"full_name":"acme/app"}}`)
	comment := `{"action":"created","comment":{"body":"/warden run add a regression test","user":{"login":"ann"},"author_association":"MEMBER"},"issue":{"number":7,"title":"Crash","body":"","html_url":"u"},"repository":{"full_name":"acme/app"}}`
	otherRepo := strings.Replace(issue, `"full_name":"acme/app"`, `"full_name":"acme/other"`, 1)
	edited := strings.Replace(issue, `"action":"labeled"`, `"action":"edited"`, 1)
	gh := func(event, delivery, body string) map[string]string {
		return map[string]string{"X-GitHub-Event": event, "X-GitHub-Delivery": delivery, "X-Hub-Signature-256": ghSign(body)}
	}
	alert := `{"version":"4","status":"firing","alerts":[{"status":"firing","labels":{"alertname":"DiskFull","host":"db1"},"annotations":{"summary":"/var at 97%"},"startsAt":"2026-11-26T01:00:00Z","fingerprint":"abc"},{"status":"resolved","labels":{"alertname":"Old"},"startsAt":"2026-11-25T01:00:00Z","fingerprint":"def"}]}`
	tg := func(id int, chat int, text string) string {
		return fmt.Sprintf(`{"update_id":%d,"message":{"message_id":1,"chat":{"id":%d},"text":%q}}`, id, chat, text)
	}
	tgh := map[string]string{"X-Telegram-Bot-Api-Secret-Token": tgSecret}
	big := fmt.Sprintf(`{"project":%q,"prompt":"%s"}`, p, strings.Repeat("a", 2<<20))

	cases := []apiCase{
		// health and metrics
		{name: "health without token", method: "GET", path: "/health", tok: "none", status: 200, want: []string{`"status":"ok"`}},
		{name: "health wrong method", method: "POST", path: "/health", tok: "none", status: 405, want: []string{"method_not_allowed", "use GET"}},
		{name: "health/db needs a token", method: "GET", path: "/health/db", tok: "none", status: 401, want: []string{"warden token create"}},
		{name: "health/db", method: "GET", path: "/health/db", status: 200, want: []string{`"ok"`}},
		{name: "health/tmux without agents", method: "GET", path: "/health/tmux", status: 200, want: []string{"not_used"}},
		{name: "metrics need a token", method: "GET", path: "/metrics", tok: "none", status: 401},
		{name: "openapi", method: "GET", path: "/api/openapi.json", status: 200, want: []string{`"openapi": "3.0.3"`}},
		{name: "openapi needs a token", method: "GET", path: "/api/openapi.json", tok: "bad", status: 401, want: []string{"invalid or revoked token"}},
		// creating tasks
		{name: "create", method: "POST", path: "/api/tasks", body: valid, status: 201, want: []string{`"status":"queued"`, `"priority":3`, `"source":"api"`}, writes: 1},
		{name: "create without token", method: "POST", path: "/api/tasks", body: valid, tok: "none", status: 401, want: []string{"missing token"}},
		{name: "create with a wrong token", method: "POST", path: "/api/tasks", body: valid, tok: "bad", status: 401, want: []string{"invalid or revoked"}},
		{name: "create with a revoked token", method: "POST", path: "/api/tasks", body: valid, tok: "revoked", status: 401, want: []string{"invalid or revoked"}},
		{name: "create with Basic auth", method: "POST", path: "/api/tasks", body: valid, tok: "none", hdr: map[string]string{"Authorization": "Basic dXNlcjpwYXNz"}, status: 401},
		{name: "malformed JSON", method: "POST", path: "/api/tasks", body: `{"project":"/x",`, status: 400, want: []string{"ends early"}},
		{name: "syntax error", method: "POST", path: "/api/tasks", body: `{"project" "/x"}`, status: 400, want: []string{"malformed JSON at byte"}},
		{name: "unknown field", method: "POST", path: "/api/tasks", body: fmt.Sprintf(`{"project":%q,"prompt":"x","prio":1}`, p), status: 400, want: []string{`unknown field \"prio\"`}},
		{name: "wrong type", method: "POST", path: "/api/tasks", body: fmt.Sprintf(`{"project":%q,"prompt":"x","priority":"high"}`, p), status: 400, want: []string{`field \"priority\" must be an integer, not string`}},
		{name: "array body", method: "POST", path: "/api/tasks", body: `[1,2]`, status: 400, want: []string{"must be a JSON object"}},
		{name: "two objects", method: "POST", path: "/api/tasks", body: valid + valid, status: 400, want: []string{"more than one JSON value"}},
		{name: "empty body", method: "POST", path: "/api/tasks", body: "", status: 400, want: []string{"empty body"}},
		{name: "oversize body", method: "POST", path: "/api/tasks", body: big, status: 413, want: []string{"larger than 1048576 bytes"}},
		{name: "not JSON content", method: "POST", path: "/api/tasks", body: valid, hdr: map[string]string{"Content-Type": "text/plain"}, status: 415, want: []string{"application/json"}},
		{name: "relative project", method: "POST", path: "/api/tasks", body: `{"project":"src/app","prompt":"x"}`, status: 400, want: []string{"invalid_task", "not an absolute path"}},
		{name: "no prompt", method: "POST", path: "/api/tasks", body: fmt.Sprintf(`{"project":%q,"prompt":"  "}`, p), status: 400, want: []string{"prompt is empty"}},
		{name: "priority out of range", method: "POST", path: "/api/tasks", body: fmt.Sprintf(`{"project":%q,"prompt":"x","priority":5000}`, p), status: 400, want: []string{"priority 5000 is out of range"}},
		{name: "create with criteria and operations", method: "POST", path: "/api/tasks", body: fmt.Sprintf(`{"project":%q,"prompt":"ship it","criteria":["committed","run:go test ./..."],"allow":["push"],"deny":["network"]}`, p), status: 201, want: []string{`"criteria":["committed","run:go test ./..."]`, `"allow":["push"]`, `"deny":["network"]`}, writes: 1},
		{name: "unknown allowed operation", method: "POST", path: "/api/tasks", body: fmt.Sprintf(`{"project":%q,"prompt":"x","allow":["force-push"]}`, p), status: 400, want: []string{"invalid_task", `allow \"force-push\" is not an operation`, "push, fetch"}},
		{name: "denying what is denied already", method: "POST", path: "/api/tasks", body: fmt.Sprintf(`{"project":%q,"prompt":"x","deny":["push"]}`, p), status: 400, want: []string{`denied push already unless the task allows it`}},
		{name: "create with a profile", method: "POST", path: "/api/tasks", body: fmt.Sprintf(`{"project":%q,"prompt":"review it","profile":"read-only","deny":["network"]}`, p), status: 201, want: []string{`"deny":["network","write","commit"]`}, writes: 1},
		{name: "create for codex", method: "POST", path: "/api/tasks", body: fmt.Sprintf(`{"project":%q,"prompt":"port it","agent":"codex"}`, p), status: 201, want: []string{`"agent":"codex"`}, writes: 1},
		{name: "unknown agent", method: "POST", path: "/api/tasks", body: fmt.Sprintf(`{"project":%q,"prompt":"x","agent":"cursor"}`, p), status: 400, want: []string{"invalid_task", `agent \"cursor\" is not a kind`, "tmux, claude-p, codex, gemini, copilot"}},
		{name: "unknown profile", method: "POST", path: "/api/tasks", body: fmt.Sprintf(`{"project":%q,"prompt":"x","profile":"yolo"}`, p), status: 400, want: []string{`profile \"yolo\" is unknown; use one of offline, publish, read-only, sealed`}},
		{name: "run criterion without a command", method: "POST", path: "/api/tasks", body: fmt.Sprintf(`{"project":%q,"prompt":"x","criteria":["run: "]}`, p), status: 400, want: []string{"names no command"}},
		{name: "idempotent create", method: "POST", path: "/api/tasks", body: fmt.Sprintf(`{"project":%q,"prompt":"once"}`, p), hdr: map[string]string{"Idempotency-Key": "k-1"}, status: 201, want: []string{`"idempotency_key":"k-1"`}, writes: 1},
		{name: "idempotent retry", method: "POST", path: "/api/tasks", body: fmt.Sprintf(`{"project":%q,"prompt":"once"}`, p), hdr: map[string]string{"Idempotency-Key": "k-1"}, status: 200, want: []string{`"idempotency_key":"k-1"`}},
		{name: "key reused for another task", method: "POST", path: "/api/tasks", body: fmt.Sprintf(`{"project":%q,"prompt":"twice"}`, p), hdr: map[string]string{"Idempotency-Key": "k-1"}, status: 409, want: []string{"idempotency_key_reused"}},
		{name: "header and field keys differ", method: "POST", path: "/api/tasks", body: fmt.Sprintf(`{"project":%q,"prompt":"x","idempotency_key":"a"}`, p), hdr: map[string]string{"Idempotency-Key": "b"}, status: 400, want: []string{"differ"}},
		{name: "tasks wrong method", method: "DELETE", path: "/api/tasks", status: 405, want: []string{"use POST or GET"}},
		// reading tasks
		{name: "list", method: "GET", path: "/api/tasks", status: 200, want: []string{`"tasks":[`, `"id":"tseed"`}},
		{name: "list by status", method: "GET", path: "/api/tasks?status=done", status: 200, want: []string{`"id":"tdone"`}},
		{name: "list bad status", method: "GET", path: "/api/tasks?status=finished", status: 400, want: []string{`status \"finished\" is unknown`}},
		{name: "list bad limit", method: "GET", path: "/api/tasks?limit=0", status: 400, want: []string{"from 1 to 1000"}},
		{name: "list unknown parameter", method: "GET", path: "/api/tasks?sort=asc", status: 400, want: []string{`unknown query parameter \"sort\"`}},
		{name: "show", method: "GET", path: "/api/tasks/tseed", status: 200, want: []string{`"history":[`, `"created by an unnamed client"`}},
		{name: "show unknown", method: "GET", path: "/api/tasks/tnope", status: 404, want: []string{"no task tnope"}},
		{name: "show malformed id", method: "GET", path: "/api/tasks/t%24x", status: 400, want: []string{"malformed"}},
		{name: "show without token", method: "GET", path: "/api/tasks/tseed", tok: "none", status: 401},
		// cancelling
		{name: "cancel with bad body", method: "POST", path: "/api/tasks/tseed/cancel", body: `{"why":"x"}`, status: 400, want: []string{`unknown field \"why\"`}},
		{name: "cancel", method: "POST", path: "/api/tasks/tseed/cancel", body: `{"reason":"not needed"}`, status: 200, want: []string{`"status":"cancelled"`}},
		{name: "cancel again", method: "POST", path: "/api/tasks/tseed/cancel", status: 409, want: []string{"conflict", "is cancelled"}},
		{name: "cancel a done task", method: "POST", path: "/api/tasks/tdone/cancel", status: 409, want: []string{"is done"}},
		{name: "cancel unknown", method: "POST", path: "/api/tasks/tnope/cancel", status: 404},
		{name: "cancel with GET", method: "GET", path: "/api/tasks/tseed/cancel", status: 405},
		// the other reads
		{name: "agents", method: "GET", path: "/api/agents", status: 200, want: []string{`"agents":[]`}},
		{name: "agents unknown parameter", method: "GET", path: "/api/agents?all=1", status: 400},
		{name: "projects", method: "GET", path: "/api/projects", status: 200, want: []string{`"path":"` + p + `"`}},
		{name: "systems", method: "GET", path: "/api/systems", status: 200, want: []string{`"name":"test-box"`, `"max_agents":4`, `"cancelled":1`}},
		{name: "sessions", method: "GET", path: "/api/sessions", status: 200, want: []string{`"sessions":[]`}},
		{name: "sessions bad limit", method: "GET", path: "/api/sessions?limit=x", status: 400},
		{name: "events", method: "GET", path: "/api/events?since=0&limit=10", status: 200, want: []string{`"events":[]`, `"next":0`}},
		{name: "events by time", method: "GET", path: "/api/events?since=2026-01-01T00:00:00Z", status: 200},
		{name: "events bad cursor", method: "GET", path: "/api/events?since=yesterday", status: 400, want: []string{"RFC 3339"}},
		{name: "events limit too big", method: "GET", path: "/api/events?limit=5000", status: 400},
		{name: "pace", method: "GET", path: "/api/pace", status: 200, want: []string{"no subscription limits known", `"scheduler":`}},
		{name: "usage daily", method: "GET", path: "/api/usage?report=daily", status: 200, want: []string{`"daily":[]`}},
		{name: "usage blocks", method: "GET", path: "/api/usage?report=blocks", status: 200, want: []string{`"blocks":`}},
		{name: "usage unknown report", method: "GET", path: "/api/usage?report=hourly", status: 400, want: []string{"daily, session or blocks"}},
		{name: "unknown API route", method: "GET", path: "/api/nope", status: 404, want: []string{"no route GET /api/nope"}},
		{name: "unknown path", method: "GET", path: "/nothing/here", tok: "none", status: 404, want: []string{"not_found"}},
		// internal routes (loopback here; the remote case is TestInternalRoutesRefuseRemote)
		{name: "spawn without agents", method: "POST", path: "/internal/spawn-agent", body: `{"task_id":"tseed"}`, status: 501, want: []string{"not_implemented"}},
		{name: "spawn bad body", method: "POST", path: "/internal/spawn-agent", body: `{"task":"tseed"}`, status: 400},
		{name: "spawn bad id", method: "POST", path: "/internal/spawn-agent", body: `{"task_id":"../x"}`, status: 400, want: []string{"malformed"}},
		{name: "spawn without token", method: "POST", path: "/internal/spawn-agent", body: `{"task_id":"tseed"}`, tok: "none", status: 401},
		{name: "kill without agents", method: "POST", path: "/internal/kill-agent", body: `{"task_id":"tseed"}`, status: 501},
		{name: "kill with GET", method: "GET", path: "/internal/kill-agent", status: 405},
		{name: "agent status without id", method: "GET", path: "/internal/agent-status", status: 400, want: []string{"task_id"}},
		{name: "agent status", method: "GET", path: "/internal/agent-status?task_id=tseed", status: 501},
		// GitHub
		{name: "github labelled issue", method: "POST", path: "/webhook/github", body: issue, tok: "none", hdr: gh("issues", "d-1", issue), status: 201, want: []string{"Work on GitHub issue acme/app#7: Crash on start", `"source":"github"`}, writes: 1},
		{name: "github redelivery", method: "POST", path: "/webhook/github", body: issue, tok: "none", hdr: gh("issues", "d-1", issue), status: 200, want: []string{`"duplicate":true`}},
		{name: "github comment", method: "POST", path: "/webhook/github", body: comment, tok: "none", hdr: gh("issue_comment", "d-2", comment), status: 201, want: []string{"add a regression test", "Asked by ann"}, writes: 1},
		{name: "github bad signature", method: "POST", path: "/webhook/github", body: issue, tok: "none", hdr: map[string]string{"X-GitHub-Event": "issues", "X-GitHub-Delivery": "d-3", "X-Hub-Signature-256": ghSign(issue + " ")}, status: 401, want: []string{"bad_signature"}},
		{name: "github no signature", method: "POST", path: "/webhook/github", body: issue, tok: "none", hdr: map[string]string{"X-GitHub-Event": "issues", "X-GitHub-Delivery": "d-4"}, status: 401},
		{name: "github no delivery id", method: "POST", path: "/webhook/github", body: issue, tok: "none", hdr: gh("issues", "", issue), status: 400, want: []string{"X-GitHub-Delivery"}},
		{name: "github ping", method: "POST", path: "/webhook/github", body: `{"zen":"x"}`, tok: "none", hdr: gh("ping", "d-5", `{"zen":"x"}`), status: 200, want: []string{`"ping"`}},
		{name: "github other repository", method: "POST", path: "/webhook/github", body: otherRepo, tok: "none", hdr: gh("issues", "d-6", otherRepo), status: 202, want: []string{"acme/other is not in webhook.github_repos"}},
		{name: "github unrelated event", method: "POST", path: "/webhook/github", body: edited, tok: "none", hdr: gh("issues", "d-7", edited), status: 202},
		{name: "github signed garbage", method: "POST", path: "/webhook/github", body: `{"action":`, tok: "none", hdr: gh("issues", "d-8", `{"action":`), status: 400},
		// Alertmanager
		{name: "alertmanager needs a token", method: "POST", path: "/webhook/alertmanager", body: alert, tok: "none", status: 401},
		{name: "alertmanager firing", method: "POST", path: "/webhook/alertmanager", body: alert, status: 201, want: []string{`"created":["t`, `"existing":[]`}, writes: 1},
		{name: "alertmanager repeat", method: "POST", path: "/webhook/alertmanager", body: alert, status: 200, want: []string{`"created":[]`, `"existing":["t`}},
		{name: "alertmanager old version", method: "POST", path: "/webhook/alertmanager", body: `{"version":"3","alerts":[]}`, status: 400, want: []string{"version 4"}},
		{name: "alertmanager no fingerprint", method: "POST", path: "/webhook/alertmanager", body: `{"version":"4","alerts":[{"status":"firing","startsAt":"2026-11-26T01:00:00Z"}]}`, status: 400, want: []string{"alerts[0]"}},
		// Telegram
		{name: "telegram wrong secret", method: "POST", path: "/webhook/telegram", body: tg(1, 42, "/status"), tok: "none", hdr: map[string]string{"X-Telegram-Bot-Api-Secret-Token": "nope"}, status: 401},
		{name: "telegram status", method: "POST", path: "/webhook/telegram", body: tg(1, 42, "/status"), tok: "none", hdr: tgh, status: 200, want: []string{`"method":"sendMessage"`, `"chat_id":42`, "agents running"}},
		{name: "telegram replay", method: "POST", path: "/webhook/telegram", body: tg(1, 42, "/status"), tok: "none", hdr: tgh, status: 200, want: []string{`"duplicate":true`}},
		{name: "telegram task add", method: "POST", path: "/webhook/telegram", body: tg(2, 42, "/task add rotate the logs"), tok: "none", hdr: tgh, status: 200, want: []string{"queued t"}, writes: 1},
		{name: "telegram pace", method: "POST", path: "/webhook/telegram", body: tg(3, 42, "/pace"), tok: "none", hdr: tgh, status: 200, want: []string{"no subscription limits known"}},
		{name: "telegram other chat", method: "POST", path: "/webhook/telegram", body: tg(4, 7, "/task add x"), tok: "none", hdr: tgh, status: 202, want: []string{"not in webhook.telegram_chats"}},
		{name: "telegram unknown command", method: "POST", path: "/webhook/telegram", body: tg(5, 42, "hello"), tok: "none", hdr: tgh, status: 200, want: []string{"warden commands"}},
		{name: "telegram not an update", method: "POST", path: "/webhook/telegram", body: `{"message":{}}`, tok: "none", hdr: tgh, status: 400, want: []string{"update_id"}},
	}
	for _, c := range cases {
		tok := r.token
		switch c.tok {
		case "none":
			tok = ""
		case "bad":
			tok = "wdn_not-a-token"
		case "revoked":
			tok = r.revoked
		}
		before := r.taskCount()
		status, body, hdr := r.do(c.method, c.path, c.body, tok, c.hdr)
		if status != c.status {
			t.Errorf("%s: %s %s: status %d, want %d\n%s", c.name, c.method, c.path, status, c.status, clip(body))
			continue
		}
		if ct := hdr.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("%s: Content-Type %q", c.name, ct)
		}
		for _, w := range c.want {
			if !strings.Contains(string(body), w) {
				t.Errorf("%s: body lacks %q:\n%s", c.name, w, clip(body))
			}
		}
		if status >= 400 {
			v := decode(t, body)
			e, _ := v["error"].(map[string]any)
			if e == nil || e["code"] == "" || e["message"] == "" || len(v) != 1 {
				t.Errorf("%s: not the error shape: %s", c.name, clip(body))
			}
		}
		if got := r.taskCount() - before; got != c.writes {
			t.Errorf("%s: wrote %d tasks, want %d", c.name, got, c.writes)
		}
	}
	// No CORS headers anywhere, wildcard or not.
	req, _ := http.NewRequest("OPTIONS", r.ts.URL+"/api/tasks", nil)
	req.Header.Set("Origin", "https://evil.example")
	req.Header.Set("Access-Control-Request-Method", "POST")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Header.Get("Access-Control-Allow-Origin") != "" || resp.StatusCode != 405 {
		t.Errorf("preflight: %d, Allow-Origin %q", resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"))
	}
}

func clip(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "…"
	}
	return string(b)
}

// The loopback-only routes refuse a peer from another machine (before the
// token is even looked at).
func TestInternalRoutesRefuseRemote(t *testing.T) {
	r := newAPIRig(t, 10, server.Webhooks{})
	for _, path := range []string{"/internal/spawn-agent", "/internal/kill-agent", "/internal/agent-status?task_id=tseed"} {
		method := "POST"
		if strings.HasPrefix(path, "/internal/agent-status") {
			method = "GET"
		}
		req := httptest.NewRequest(method, path, strings.NewReader(`{"task_id":"tseed"}`))
		req.RemoteAddr = "192.0.2.7:40000"
		req.Header.Set("Authorization", "Bearer "+r.token)
		w := httptest.NewRecorder()
		r.srv.ServeHTTP(w, req)
		if w.Code != 403 || !strings.Contains(w.Body.String(), "only connections from this machine") {
			t.Errorf("%s from 192.0.2.7: %d %s", path, w.Code, w.Body.String())
		}
	}
}

// A full queue refuses with 429 and writes nothing; webhooks that are not
// configured answer 404 saying which key switches them on.
func TestQueueFullAndWebhooksOff(t *testing.T) {
	r := newAPIRig(t, 2, server.Webhooks{})
	for i := 0; i < 3; i++ {
		status, body, _ := r.do("POST", "/api/tasks", fmt.Sprintf(`{"project":%q,"prompt":"task %d"}`, r.project, i), r.token, nil)
		want := 201
		if i == 2 {
			want = 429
		}
		if status != want {
			t.Fatalf("task %d: %d %s", i, status, body)
		}
		if i == 2 && !strings.Contains(string(body), "2 tasks queued, the limit (serve.queue_size) is 2") {
			t.Errorf("429 body: %s", body)
		}
	}
	if n := r.taskCount(); n != 2 {
		t.Errorf("%d tasks stored", n)
	}
	for path, key := range map[string]string{"/webhook/github": "webhook.github_secret", "/webhook/telegram": "webhook.telegram_secret", "/webhook/alertmanager": "webhook.alertmanager_project"} {
		status, body, _ := r.do("POST", path, `{}`, r.token, nil)
		if status != 404 || !strings.Contains(string(body), key) {
			t.Errorf("%s off: %d %s", path, status, body)
		}
	}
	status, body, _ := r.do("GET", "/metrics", "", r.token, nil)
	for _, w := range []string{`warden_tasks{status="queued"} 2`, `warden_tasks_rejected_total{reason="queue_full"} 1`, "warden_scheduler_max_agents 4", `warden_http_requests_total{code="201",method="POST",route="POST /api/tasks"} 2`} {
		if status != 200 || !strings.Contains(string(body), w) {
			t.Errorf("metrics lack %q (%d)", w, status)
		}
	}
}

// The dashboard mounts at "/" behind the same token (or the session
// cookie); the API's routes and its JSON 404s under /api/ stay the API's.
func TestMountAtRoot(t *testing.T) {
	r := newAPIRig(t, 10, server.Webhooks{})
	r.srv.Mount("/", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Write([]byte("dashboard " + req.URL.Path))
	}), false)
	if status, body, _ := r.do("GET", "/board", "", r.token, nil); status != 200 || string(body) != "dashboard /board" {
		t.Errorf("mounted page with a token: %d %s", status, body)
	}
	if status, _, _ := r.do("GET", "/board", "", "", nil); status != 401 {
		t.Errorf("mounted page without a token: %d", status)
	}
	if status, body, _ := r.do("GET", "/", "", "", map[string]string{"Cookie": server.CookieName + "=" + r.token}); status != 200 || !strings.HasPrefix(string(body), "dashboard") {
		t.Errorf("session cookie: %d %s", status, body)
	}
	if status, body, _ := r.do("GET", "/api/nope", "", r.token, nil); status != 404 || !strings.Contains(string(body), "not_found") {
		t.Errorf("/api/nope with a dashboard mounted: %d %s", status, body)
	}
}
