//go:build linux

package daemon_test

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/warden-dev/warden/internal/daemon"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/testenv"
)

// A URL that is no PostgreSQL URL can never work: warden serve says so in
// one line naming the keys and the fix, exits 1, and leaves nothing
// running.
func TestServeRefusesABadDatabaseURL(t *testing.T) {
	h := newHome(t)
	cmd := exec.Command(filepath.Join(h.bin, "warden"), "serve", "--addr", "127.0.0.1:0")
	cmd.Env = append(h.env, "WARDEN_DATABASE_URL=postgres://u@host:notaport/db")
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 {
		t.Fatalf("serve with a bad URL: %v; want exit 1\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "WARDEN_DATABASE_URL") || !strings.Contains(lines[0], "postgres://USER:PASSWORD@HOST:5432/DATABASE") {
		t.Errorf("want one line naming WARDEN_DATABASE_URL and the fix; got:\n%s", out)
	}
	if _, err := daemon.ReadState(filepath.Join(h.dir, "run", "serve.json")); err == nil {
		t.Error("a daemon state file was left behind")
	}
}

// A shared store that does not answer at start-up (its server is down):
// warden serve comes up anyway. Hooks, the API's reads and the dashboard
// serve the local store at once, and /health, /health/db, the footer, the
// log and stderr say the shared store is not reachable yet. The task
// queue waits (503, never a local queue). Once the server is up, the
// daemon switches to it without a restart: events come from the shared
// store, tasks queue there and the scheduler runs them, and the CLI's
// token still works.
func TestServeAnswersBeforeTheSharedStore(t *testing.T) {
	h := newHome(t)
	srv := testenv.NewPostgres(t)
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	dbURL := srv.URL("postgres")
	h.env = append(h.env, "WARDEN_DATABASE_URL="+dbURL)
	cmd := h.serve() // waits for /health
	outPath := filepath.Join(h.dir, "serve.out")
	h.waitFor("the line about the unreachable shared store", func() bool {
		b, _ := os.ReadFile(outPath)
		return strings.Contains(string(b), "warden serve: shared store:") && strings.Contains(string(b), "the task queue and the scheduler wait")
	})
	c := h.api()

	var health struct {
		Status      string `json:"status"`
		SharedStore struct {
			State, Where, Error string
			Waiting             []string
		} `json:"shared_store"`
	}
	if c.getJSON("/health", &health); health.Status != "degraded" || health.SharedStore.State != "waiting" ||
		!strings.Contains(health.SharedStore.Where, "/postgres") || health.SharedStore.Error == "" || len(health.SharedStore.Waiting) == 0 {
		t.Errorf("/health while the shared store is down: %+v", health)
	}
	if code, body := c.get("/health/db"); code != 503 || !strings.Contains(body, `"shared":{"status":"down","error":"not reachable yet`) ||
		!strings.Contains(body, `"local":{"status":"ok"`) || !strings.Contains(body, `"source":"local"`) {
		t.Errorf("/health/db = %d %s", code, body)
	}
	// A hook is recorded locally and the API reads it from there.
	h.waitFor("a hook answered while the shared store is down", func() bool {
		return h.hook(h.lone, "s-down") == "" && h.events("s-down") == 1
	})
	var page eventsPage
	if c.getJSON("/api/events?session=s-down", &page); page.Source != "local" || len(page.Events) != 1 {
		t.Errorf("/api/events while waiting: source %q, %d events", page.Source, len(page.Events))
	}
	if code, body := c.get("/"); code != 200 || !strings.Contains(body, "is not reachable yet") {
		t.Errorf("dashboard while waiting: %d, footer lacks the waiting shared store:\n%s", code, tail(body, 2000))
	}
	bad := &apiClient{t: t, base: c.base, tk: store.APITokenPrefix + "not-this-machines"}
	if code, body := bad.get("/api/events"); code != 401 || !strings.Contains(body, "only this machine's tokens are accepted") {
		t.Errorf("an unknown token while waiting = %d %s", code, body)
	}
	// The queue waits: no task goes into a local queue.
	if code, body := c.post("/api/tasks", `{"project":`+strconv.Quote(h.dir)+`,"prompt":"early"}`); code != 503 || !strings.Contains(body, "shared_store_waiting") {
		t.Errorf("POST /api/tasks while waiting = %d %s; want 503 shared_store_waiting", code, body)
	}
	if code, _ := c.get("/api/tasks"); code != 503 {
		t.Errorf("GET /api/tasks while waiting = %d; want 503", code)
	}
	if lg, _ := os.ReadFile(filepath.Join(h.dir, "logs", "daemon.log")); !strings.Contains(string(lg), "shared store not reachable yet") {
		t.Errorf("the log does not say the shared store is not reachable yet")
	}

	// The server comes up: the daemon switches over without a restart.
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	h.waitFor("/health to say the shared store is up", func() bool {
		c.getJSON("/health", &health)
		return health.Status == "ok" && health.SharedStore.State == "up"
	})
	h.waitFor("/health/db all up", func() bool {
		code, body := c.get("/health/db")
		return code == 200 && strings.Contains(body, `"shared":{"status":"ok"`)
	})
	if c.getJSON("/api/events", &page); page.Source != "shared" {
		t.Errorf("/api/events after the switch reads %q", page.Source)
	}
	if code, body := c.get("/"); code != 200 || strings.Contains(body, "not reachable yet") {
		t.Errorf("dashboard after the switch: %d, still says waiting", code)
	}
	code, body := c.post("/api/tasks", `{"project":`+strconv.Quote(h.dir)+`,"prompt":"after the switch"}`)
	if code != 201 {
		t.Fatalf("POST /api/tasks after the switch = %d %s", code, body)
	}
	var created struct{ ID string }
	json.Unmarshal([]byte(body), &created)
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM tasks WHERE id = $1", created.ID).Scan(&n); err != nil || n != 1 {
		t.Errorf("task %s in the shared store: %d rows, %v", created.ID, n, err)
	}
	h.waitFor("the scheduler to run the task", func() bool {
		b, _ := os.ReadFile(h.log)
		return strings.Contains(string(b), created.ID+" ")
	})
	os.WriteFile(filepath.Join(h.release, created.ID), nil, 0o644)
	h.waitFor("the hook's event shipped to the shared store", func() bool {
		var n int
		conn.QueryRow(context.Background(), "SELECT count(*) FROM events WHERE session_id = 's-down'").Scan(&n)
		return n == 1
	})
	syscall.Kill(cmd.Process.Pid, syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Errorf("SIGTERM: %v", err)
	}
}

// A shared store that refuses the password: warden serve comes up on the
// local store as for an outage, and /health, /health/db and stderr say
// that retrying will not mend it.
func TestServeSaysAWrongPasswordNeedsAFix(t *testing.T) {
	h := newHome(t)
	srv := testenv.NewPostgres(t)
	if err := srv.RequirePassword("right-pw"); err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(srv.URL("postgres"))
	u.User = url.UserPassword("postgres", "wrong-pw")
	h.env = append(h.env, "WARDEN_DATABASE_URL="+u.String())
	cmd := h.serve()
	c := h.api()
	var health struct {
		Status      string
		SharedStore struct {
			State, Error string
			Permanent    bool
		} `json:"shared_store"`
	}
	h.waitFor("/health to name the refused login", func() bool {
		c.getJSON("/health", &health)
		return health.SharedStore.Error != ""
	})
	if health.Status != "degraded" || health.SharedStore.State != "waiting" || !health.SharedStore.Permanent ||
		!strings.Contains(health.SharedStore.Error, "fix the user or password in store.url / WARDEN_DATABASE_URL") || strings.Contains(health.SharedStore.Error, "wrong-pw") {
		t.Errorf("/health with a wrong password: %+v", health)
	}
	if code, body := c.get("/health/db"); code != 503 || !strings.Contains(body, `"permanent":true`) {
		t.Errorf("/health/db = %d %s", code, body)
	}
	h.waitFor("stderr to say retrying will not mend it", func() bool {
		b, _ := os.ReadFile(filepath.Join(h.dir, "serve.out"))
		return strings.Contains(string(b), "retrying will not mend this: fix store.url / WARDEN_DATABASE_URL")
	})
	syscall.Kill(cmd.Process.Pid, syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Errorf("SIGTERM: %v", err)
	}
}
