package server_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/server"
	"github.com/warden-dev/warden/internal/task"
)

// FuzzAPIRequest sends made-up requests to every REST route: any method,
// path (ids, escapes, traversal), query (status, limit, unknown keys),
// content type, body (task creation JSON, answers, reasons) and token (a
// live one, none, a revoked one, garbage). Whatever comes in: no 5xx, a
// refusal is a JSON error, and only a 201 from POST /api/tasks adds a
// task (exactly one).
func FuzzAPIRequest(f *testing.F) {
	r := newAPIRig(f, fuzzQueue, server.Webhooks{})
	ctx := context.Background()
	now := time.Now().UTC()
	if _, _, err := r.st.CreateTask(ctx, &task.Task{ID: "tseed", Project: r.project, Prompt: "seed", Status: task.Queued, CreatedAt: now, UpdatedAt: now}, 0); err != nil {
		f.Fatal(err)
	}
	valid := fmt.Sprintf(`{"project":%q,"prompt":"fix the flaky test","priority":3}`, r.project)
	seeds := []struct {
		method, target, ctype, body string
		auth                        byte
	}{
		{"GET", "/health", "", "", 0},
		{"GET", "/api/tasks?status=queued,running&limit=20&project=/tmp", "", "", 1},
		{"GET", "/api/tasks?limit=0", "", "", 1},
		{"GET", "/api/tasks?status=nope", "", "", 1},
		{"GET", "/api/tasks?bogus=1", "", "", 1},
		{"GET", "/api/tasks/tseed", "", "", 1},
		{"GET", "/api/tasks/%2f..%2fetc", "", "", 1},
		{"GET", "/api/tasks/t%00x", "", "", 1},
		{"POST", "/api/tasks", "application/json", valid, 1},
		{"POST", "/api/tasks", "application/json", valid, 2},
		{"POST", "/api/tasks", "application/json", valid, 0},
		{"POST", "/api/tasks", "text/plain", valid, 1},
		{"POST", "/api/tasks", "application/json", `{"project":"/nonexistent","prompt":"x"}`, 1},
		{"POST", "/api/tasks", "application/json", `{"project":"a\u0000b","prompt":"x"}`, 1},
		{"POST", "/api/tasks", "application/json", fmt.Sprintf(`{"project":%q,"prompt":"x","criteria":["run:true"],"allow":["Bash(go test:*)"],"profile":"nope"}`, r.project), 1},
		{"POST", "/api/tasks", "application/json", `{"prompt":1}`, 1},
		{"POST", "/api/tasks", "application/json", `[]`, 1},
		{"POST", "/api/tasks", "application/json", `{"a":1}{"b":2}`, 1},
		{"POST", "/api/tasks", "application/json", `{"project":`, 1},
		{"POST", "/api/tasks", "application/json", fmt.Sprintf(`{"project":%q,"prompt":"x","priority":1e99}`, r.project), 1},
		{"POST", "/api/tasks/tseed/cancel", "application/json", `{"reason":"no longer needed"}`, 1},
		{"POST", "/api/tasks/tseed/approve", "application/json", `{"always":true}`, 1},
		{"POST", "/api/tasks/tseed/deny", "application/json", `{"reason":"no"}`, 1},
		{"POST", "/api/tasks/tseed/reply", "application/json", `{"message":"go on"}`, 1},
		{"POST", "/api/tasks/tseed/merge", "application/json", `{"mode":"pr"}`, 1},
		{"GET", "/api/events?limit=50&after=3&session=s&event=Stop", "", "", 1},
		{"GET", "/api/events?after=-1", "", "", 1},
		{"GET", "/api/sessions?limit=5", "", "", 1},
		{"GET", "/api/usage?view=blocks&since=2026-01-01", "", "", 1},
		{"GET", "/api/usage?view=daily&since=yesterday", "", "", 1},
		{"GET", "/api/pace", "", "", 1},
		{"GET", "/api/agents", "", "", 1},
		{"GET", "/api/projects", "", "", 1},
		{"GET", "/api/systems", "", "", 1},
		{"GET", "/metrics", "", "", 1},
		{"GET", "/health/db", "", "", 3},
		{"POST", "/internal/spawn-agent", "application/json", `{"task":"tseed"}`, 1},
		{"BREW", "/api/tasks", "", "", 1},
		{"DELETE", "/api/tasks/tseed", "", "", 1},
		{"GET", "/no/such/route", "", "", 1},
	}
	for _, s := range seeds {
		f.Add(s.method, s.target, s.ctype, []byte(s.body), s.auth)
	}
	tokens := []string{"", r.token, r.revoked, "wdn_" + strings.Repeat("x", 40)}
	f.Fuzz(func(t *testing.T, method, target, ctype string, body []byte, auth byte) {
		req, ok := rawRequest(method, target)
		if !ok {
			t.Skip("net/http refuses this request line before any handler")
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
		if ctype != "" && !strings.ContainsAny(ctype, "\r\n") {
			req.Header.Set("Content-Type", ctype)
		}
		if tok := tokens[int(auth)%len(tokens)]; tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		before := tasksIn(t, r.st)
		rec := serve(t, r.srv, req)
		added := tasksIn(t, r.st) - before
		creation := req.Method == "POST" && req.URL.Path == "/api/tasks"
		switch {
		case rec.Code == http.StatusCreated && creation:
			if added != 1 {
				t.Fatalf("201 added %d tasks; want 1", added)
			}
		case added != 0:
			t.Fatalf("%s %s answered %d and added %d tasks", req.Method, req.URL, rec.Code, added)
		}
		if auth%byte(len(tokens)) != 1 && rec.Code < 300 && req.URL.Path != "/health" {
			t.Fatalf("%s %s without a live token: %d %s", req.Method, req.URL, rec.Code, rec.Body.Bytes())
		}
	})
}
