//go:build linux

package daemon_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/daemon"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/store/ship"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
	"github.com/warden-dev/warden/internal/testenv"
)

// Sessions of the two machines and of the hook the daemon answers; the
// dashboard shows the first 8 characters.
const (
	sessA    = "aaaaaaaa-machine-a"
	sessB    = "bbbbbbbb-machine-b"
	sessHook = "hhhhhhhh-hook"
)

// recordActivity records a block, the call running anyway (an override)
// and a Stop in a machine's local store, with its session row.
func recordActivity(t *testing.T, st *sqlite.Store, sess, rule string, now time.Time) {
	t.Helper()
	ctx := context.Background()
	for i, e := range []store.Event{
		{Event: "PreToolUse", Tool: "Bash", ToolUseID: "u-" + sess, Decision: "ask", Rule: rule, Mode: "ask"},
		{Event: "PostToolUse", Tool: "Bash", ToolUseID: "u-" + sess},
		{Event: "Stop"},
	} {
		e.SessionID, e.Time = sess, now.Add(time.Duration(i-3)*time.Minute)
		if err := st.RecordHook(ctx, &e, &store.Session{ID: sess, Cwd: "/proj/" + sess}); err != nil {
			t.Fatal(err)
		}
	}
}

// apiClient calls a daemon's API and dashboard with its CLI token.
type apiClient struct {
	t        *testing.T
	base, tk string
}

func (h *home) api() *apiClient {
	st, err := daemon.ReadState(filepath.Join(h.dir, "run", "serve.json"))
	if err != nil {
		h.t.Fatal(err)
	}
	tok, err := os.ReadFile(filepath.Join(h.dir, "run", "cli.token"))
	if err != nil {
		h.t.Fatal(err)
	}
	return &apiClient{t: h.t, base: st.URL, tk: strings.TrimSpace(string(tok))}
}

// get returns the status and body of GET path (the dashboard takes the
// bearer token as the API does).
func (c *apiClient) get(path string) (int, string) {
	c.t.Helper()
	req, _ := http.NewRequest("GET", c.base+path, nil)
	req.Header.Set("Authorization", "Bearer "+c.tk)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// post returns the status and body of POST path with a JSON body.
func (c *apiClient) post(path, body string) (int, string) {
	c.t.Helper()
	req, _ := http.NewRequest("POST", c.base+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+c.tk)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (c *apiClient) getJSON(path string, v any) int {
	c.t.Helper()
	status, body := c.get(path)
	if err := json.Unmarshal([]byte(body), v); err != nil {
		c.t.Fatalf("GET %s: %d %s: %v", path, status, body, err)
	}
	return status
}

// stream opens an SSE stream at path and sends the data line of its
// first "reload" event; the stream closes with the test.
func (c *apiClient) stream(path string) <-chan string {
	c.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	c.t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", c.base+path, nil)
	req.Header.Set("Authorization", "Bearer "+c.tk)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		c.t.Fatalf("GET %s: %s", path, resp.Status)
	}
	out := make(chan string, 1)
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		reload := false
		for sc.Scan() {
			switch line := sc.Text(); {
			case line == "event: reload":
				reload = true
			case reload && strings.HasPrefix(line, "data: "):
				out <- line
				return
			}
		}
	}()
	return out
}

type eventsPage struct {
	Events []store.Event `json:"events"`
	Source string        `json:"source"`
}

// perSession counts a page's events by session.
func (p eventsPage) perSession() map[string]int {
	out := map[string]int{}
	for _, e := range p.Events {
		out[e.SessionID]++
	}
	return out
}

type healthDB struct {
	Checks map[string]struct {
		Status string         `json:"status"`
		Detail map[string]any `json:"detail"`
	} `json:"checks"`
}

// TestPoolDashboardShowsEveryMachinesEvents: two machines' local stores
// shipped into one PostgreSQL database (machine B by its own shipper,
// machine A by the spool of its `warden serve`). The daemon on A, with
// the shared store configured, shows both machines' events in
// /api/events, /api/sessions and the dashboard's pages, while a hook it
// answers is written to A's local store first. When the database stops
// taking connections, the same routes answer from A's local store and
// say so.
func TestPoolDashboardShowsEveryMachinesEvents(t *testing.T) {
	dbURL := testenv.Postgres(t)
	ctx := context.Background()
	now := time.Now().UTC()

	stB := sqlitetest.Store(t, filepath.Join(t.TempDir(), "warden.db"))
	recordActivity(t, stB, sessB, "r.machine-b", now)
	sh, err := ship.New(ship.Options{Spool: stB, Origin: "machine-b", Dial: func(ctx context.Context) (ship.Target, error) {
		return postgres.Open(ctx, dbURL)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := sh.Drain(ctx); err != nil || n != 3 {
		t.Fatalf("machine B shipped %d events, %v; want 3", n, err)
	}
	sh.Close()

	h := newHome(t)
	stA, err := sqlite.Open(ctx, filepath.Join(h.dir, "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	recordActivity(t, stA, sessA, "r.machine-a", now)
	stA.Close()
	h.env = append(h.env, "WARDEN_DATABASE_URL="+dbURL)
	h.serve()
	if out := h.hook(h.lone, sessHook); out != "" || h.events(sessHook) != 1 {
		t.Fatalf("the hook the daemon answered: output %q, %d events in the local store; want none and 1", out, h.events(sessHook))
	}
	c := h.api()

	var page eventsPage
	h.waitFor("every machine's events in /api/events", func() bool {
		page = eventsPage{}
		c.getJSON("/api/events?limit=1000", &page)
		n := page.perSession()
		return n[sessA] == 3 && n[sessB] == 3 && n[sessHook] == 1
	})
	if page.Source != "shared" || len(page.Events) != 7 {
		t.Errorf("/api/events: source %q, %d events; want shared and 7 (each once)", page.Source, len(page.Events))
	}
	var sessions struct {
		Sessions []store.Session `json:"sessions"`
	}
	seen := map[string]string{}
	// The spool ships a pass's session states after its events, in a
	// transaction of their own: wait for them too.
	h.waitFor("every machine's sessions in /api/sessions", func() bool {
		c.getJSON("/api/sessions", &sessions)
		seen = map[string]string{}
		for _, s := range sessions.Sessions {
			seen[s.ID] = s.Cwd
		}
		return len(seen) == 3
	})
	if seen[sessA] != "/proj/"+sessA || seen[sessB] != "/proj/"+sessB || len(seen) != 3 {
		t.Errorf("/api/sessions = %v; want both machines' sessions and the hook's", seen)
	}
	var hd healthDB
	c.getJSON("/health/db", &hd)
	if ev := hd.Checks["events"]; ev.Status != "ok" || ev.Detail["source"] != "shared" {
		t.Errorf("/health/db events = %+v; want the shared store", ev)
	}

	// The dashboard's pages read the same record.
	_, overview := c.get("/")
	for _, want := range []string{sessA[:8], sessB[:8], "events of every machine, from the shared store"} {
		if !strings.Contains(overview, want) {
			t.Errorf("overview lacks %q", want)
		}
	}
	_, decisions := c.get("/decisions")
	if !strings.Contains(decisions, "r.machine-a") || !strings.Contains(decisions, "r.machine-b") {
		t.Errorf("decisions page lacks one machine's rule:\n%s", decisions)
	}
	_, live := c.get("/live?session=" + sessB[:8])
	if !strings.Contains(live, "r.machine-b") || strings.Contains(live, "r.machine-a") {
		t.Errorf("live view filtered to machine B's session:\n%s", live)
	}

	// The shared database stops taking connections: reads fall back to
	// this machine's store, and every place says so. A live stream open
	// meanwhile counted the shared store's ids: it tells the page to
	// reload rather than resume by id in another store.
	stream := c.stream("/live/stream")
	t.Cleanup(func() { testenv.AllowConnections(t, dbURL, true) }) // so testenv can drop it
	testenv.AllowConnections(t, dbURL, false)
	select {
	case line := <-stream:
		if !strings.Contains(line, "this machine") {
			t.Errorf("reload names %q; want the local store", line)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the live stream never asked for a reload after the shared store went away")
	}
	h.waitFor("/api/events from the local store", func() bool {
		page = eventsPage{}
		c.getJSON("/api/events?limit=1000", &page)
		return page.Source == "local"
	})
	if n := page.perSession(); n[sessA] != 3 || n[sessHook] != 1 || n[sessB] != 0 {
		t.Errorf("local fallback: events per session %v; want machine A's only", n)
	}
	hd = healthDB{}
	c.getJSON("/health/db", &hd)
	if ev := hd.Checks["events"]; ev.Status != "ok" || ev.Detail["source"] != "local" || ev.Detail["shared_error"] == "" {
		t.Errorf("/health/db events after the outage = %+v; want local with the shared store's error", ev)
	}
	if _, overview := c.get("/"); !strings.Contains(overview, "this machine&#39;s events only") {
		t.Errorf("overview does not say it shows this machine's events only")
	}
}
