package server_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/daemon"
	"github.com/warden-dev/warden/internal/orchestrator"
	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/server"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/task"
)

const (
	ghSecret = "gh-s3cret"
	tgSecret = "tg-s3cret"
)

// apiRig is the server as the daemon builds it, on a real store, with a
// real (not running) scheduler, behind a real loopback listener.
type apiRig struct {
	t       testing.TB
	st      *sqlite.Store
	srv     *server.Server
	ts      *httptest.Server
	token   string
	revoked string
	project string
}

func newAPIRig(t testing.TB, queueSize int, wh server.Webhooks, mods ...func(*server.Options)) *apiRig {
	t.Helper()
	return newAPIRigHosts(t, queueSize, wh, nil, mods...)
}

// newAPIRigHosts is newAPIRig whose server also answers to hosts
// (serve.hosts: names served besides the listener's address).
func newAPIRigHosts(t testing.TB, queueSize int, wh server.Webhooks, hosts []string, mods ...func(*server.Options)) *apiRig {
	t.Helper()
	dir := t.TempDir()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	st.SetMaxOpenConns(4)
	ps := pace.DefaultSettings()
	sched, err := orchestrator.New(orchestrator.Options{Store: st, Settings: st, Owner: "test",
		Runners: map[string]agent.Runner{agent.HeadlessName: &agent.Headless{Command: "/nonexistent/claude", Dir: filepath.Join(dir, "tasks")}},
		Quota:   &orchestrator.PaceQuota{Settings: ps, Figures: orchestrator.StoreFigures(st, ps)}})
	if err != nil {
		t.Fatal(err)
	}
	r := &apiRig{t: t, st: st, project: filepath.Join(dir, "proj")}
	os.MkdirAll(r.project, 0o755)
	if wh.GitHubSecret != "" {
		wh.GitHubProjects = map[string]string{"acme/app": r.project}
	}
	if wh.AlertProject == "x" {
		wh.AlertProject = r.project
	}
	if wh.TelegramProject == "x" {
		wh.TelegramProject = r.project
	}
	opts := server.Options{Tasks: st, Scheduler: sched, Tokens: st, Deliveries: st, Events: st,
		Pace: func(ctx context.Context, now time.Time) (*pace.Record, error) {
			rec, _, err := pace.Current(ctx, st, ps, "", now)
			return rec, err
		},
		Usage:    daemon.UsageReader(st, []string{filepath.Join(dir, "claude")}),
		Webhooks: wh, QueueSize: queueSize, System: "test-box", Version: "test"}
	for _, m := range mods {
		m(&opts)
	}
	r.srv, err = server.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	r.ts = httptest.NewServer(server.HostGuard(r.srv, hosts)) // as the daemon serves it
	t.Cleanup(r.ts.Close)
	r.token = r.addToken("test")
	r.revoked = r.addToken("old")
	if n, err := st.RevokeToken(ctx, "old", time.Now()); n != 1 || err != nil {
		t.Fatal(n, err)
	}
	return r
}

func (r *apiRig) addToken(name string) string {
	tok, hash := store.NewAPIToken()
	if err := r.st.AddToken(context.Background(), &store.APIToken{ID: "id-" + name, Name: name, Hash: hash, Created: time.Now()}); err != nil {
		r.t.Fatal(err)
	}
	return tok
}

// do sends one request; tok "" sends none; hdr "Host" sets the Host.
func (r *apiRig) do(method, path, body, tok string, hdr map[string]string) (int, []byte, http.Header) {
	r.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, r.ts.URL+path, rd)
	if err != nil {
		r.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	if h, ok := hdr["Host"]; ok {
		req.Host = h // the client sends req.Host, not a Host header
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b, resp.Header
}

func (r *apiRig) taskCount() int {
	ts, err := r.st.Tasks(context.Background(), task.Filter{})
	if err != nil {
		r.t.Fatal(err)
	}
	return len(ts)
}

func ghSign(body string) string {
	m := hmac.New(sha256.New, []byte(ghSecret))
	m.Write([]byte(body))
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("not a JSON object: %v\n%s", err, b)
	}
	return v
}
