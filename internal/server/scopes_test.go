package server_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/server"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/testenv"
)

// scopedToken stores a token with scope and expiry (nil: never).
func (r *apiRig) scopedToken(name, scope string, expires *time.Time) string {
	r.t.Helper()
	tok, hash := store.NewAPIToken()
	if err := r.st.AddToken(context.Background(), &store.APIToken{ID: "id-" + name, Name: name, Hash: hash,
		Created: testenv.Now(), Scope: scope, Expires: expires}); err != nil {
		r.t.Fatal(err)
	}
	return tok
}

// TestTokenScopesPerRoute: every route of the table is tried with a
// token of each scope; the status says whether the scope got past the
// check (anything but 401 and 403) and matches what the scope allows:
// read reads, tasks also changes tasks, admin also controls agents,
// webhook:alertmanager calls only its webhook.
func TestTokenScopesPerRoute(t *testing.T) {
	r := newAPIRig(t, 10, server.Webhooks{AlertProject: "x"})
	toks := map[string]string{}
	for _, sc := range []string{"read", "tasks", "admin", "webhook:alertmanager"} {
		toks[sc] = r.scopedToken(strings.ReplaceAll(sc, ":", "-"), sc, nil)
	}
	want := map[string][]string{ // route → scopes that pass
		"GET /api/tasks":               {"read", "tasks", "admin"},
		"GET /metrics":                 {"read", "tasks", "admin"},
		"POST /api/tasks":              {"tasks", "admin"},
		"POST /api/tasks/{id}/cancel":  {"tasks", "admin"},
		"POST /internal/spawn-agent":   {"admin"},
		"GET /internal/agent-status":   {"admin"},
		"POST /webhook/alertmanager":   {"tasks", "admin", "webhook:alertmanager"},
		"GET /health/db":               {"read", "tasks", "admin"},
		"POST /api/tasks/{id}/approve": {"tasks", "admin"},
		"GET /api/tasks/{id}":          {"read", "tasks", "admin"},
		"GET /api/events":              {"read", "tasks", "admin"},
	}
	checked := 0
	for _, rt := range r.srv.Routes() {
		if rt.Access == server.Public || rt.Access == server.Signed {
			continue
		}
		key := rt.Method + " " + rt.Path
		path := strings.ReplaceAll(rt.Path, "{id}", "t0000000000000000")
		for sc, tok := range toks {
			code, body, _ := r.do(rt.Method, path, `{}`, tok, nil)
			passed := code != 401 && code != 403
			if allowed, ok := want[key]; ok {
				exp := false
				for _, a := range allowed {
					exp = exp || a == sc
				}
				if passed != exp {
					t.Errorf("%s with a %s token: %d %s; want it let through: %v", key, sc, code, body, exp)
				}
				checked++
			}
			if !passed && code == 403 && !strings.Contains(string(body), "insufficient_scope") {
				t.Errorf("%s with a %s token: 403 without insufficient_scope: %s", key, sc, body)
			}
			// Every route follows the rule, listed here or not.
			if rt.Scope() != "" && passed != (&store.APIToken{Scope: sc}).Allows(rt.Scope()) {
				t.Errorf("%s with a %s token: %d; the route needs %s", key, sc, code, rt.Scope())
			}
		}
	}
	if checked != 4*len(want) {
		t.Errorf("checked %d route×scope pairs, want %d (a route in the table is gone?)", checked, 4*len(want))
	}
	code, body, _ := r.do("POST", "/api/tasks", fmt.Sprintf(`{"project":%q,"prompt":"x"}`, r.project), toks["read"], nil)
	if code != 403 || !strings.Contains(string(body), "has scope read") || !strings.Contains(string(body), "--scope tasks") {
		t.Errorf("read token queueing a task: %d %s; want 403 naming the scope it needs", code, body)
	}
	if r.taskCount() != 0 {
		t.Errorf("%d tasks queued by refused requests", r.taskCount())
	}
	// The dashboard login takes tokens that may read; not a webhook's.
	if !r.srv.TokenValid(context.Background(), toks["read"]) || r.srv.TokenValid(context.Background(), toks["webhook:alertmanager"]) {
		t.Error("dashboard login: want read tokens in, webhook tokens out")
	}
}

// TestExpiredTokenRefused: a token works until its expiry, then every
// route refuses it with 401 naming the token and when it expired.
func TestExpiredTokenRefused(t *testing.T) {
	var now atomic.Pointer[time.Time]
	start := testenv.Now()
	now.Store(&start)
	r := newAPIRig(t, 10, server.Webhooks{}, func(o *server.Options) { o.Now = func() time.Time { return *now.Load() } })
	exp := start.Add(24 * time.Hour)
	tok := r.scopedToken("ci", store.ScopeTasks, &exp)
	if code, body, _ := r.do("GET", "/api/tasks", "", tok, nil); code != 200 {
		t.Fatalf("before expiry: %d %s", code, body)
	}
	later := exp.Add(time.Second)
	now.Store(&later)
	code, body, _ := r.do("GET", "/api/tasks", "", tok, nil)
	if code != 401 || !strings.Contains(string(body), "id-ci (ci) expired at "+exp.UTC().Format(time.RFC3339)) {
		t.Errorf("after expiry: %d %s; want 401 saying it expired", code, body)
	}
	if r.srv.TokenValid(context.Background(), tok) {
		t.Error("an expired token logs in to the dashboard")
	}
	// The token without expiry and scope (stored before scopes) goes on.
	if code, body, _ := r.do("POST", "/api/tasks", fmt.Sprintf(`{"project":%q,"prompt":"x"}`, r.project), r.token, nil); code != 201 {
		t.Errorf("unscoped token: %d %s", code, body)
	}
}
