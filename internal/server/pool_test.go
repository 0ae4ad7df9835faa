package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/orchestrator"
	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/pool"
	"github.com/warden-dev/warden/internal/server"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/testenv"
)

// The API of a pool worker: the queue and tokens in a real PostgreSQL
// store, the record in the local SQLite one. /api/systems lists the
// registry's workers (this one first, live), /health/db each store, and
// a shared store that goes away turns /health/db into a 503 naming it.
func TestPoolWorkerSystemsAndHealth(t *testing.T) {
	ctx := context.Background()
	url := testenv.Postgres(t)
	shared, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	local, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	reg := &pool.Stored{St: shared, Stale: 10 * time.Second}
	now := time.Now().UTC()
	for _, s := range []pool.System{
		{Owner: "w1:10", Name: "w1", Host: "h", PID: 10, Agents: 1, MaxAgents: 4, Started: now, Heartbeat: now},
		{Owner: "w3:30", Name: "w3", Host: "h3", PID: 30, Started: now, Heartbeat: now.Add(-time.Minute)},
		{Owner: "w2:20", Name: "w2", Host: "stale-row-of-self", PID: 20, Started: now, Heartbeat: now},
	} {
		if err := reg.Beat(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	ps := pace.DefaultSettings()
	sched, err := orchestrator.New(orchestrator.Options{Store: shared, Settings: local, Owner: "w2:20", System: "w2",
		Runners: map[string]agent.Runner{agent.HeadlessName: &agent.Headless{Command: "/nonexistent/claude"}},
		Quota:   &orchestrator.PaceQuota{Settings: ps, Figures: orchestrator.StoreFigures(shared, ps)}})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Options{Tasks: shared, Scheduler: sched, Tokens: shared, Deliveries: shared, Events: local,
		Systems: reg.Systems, System: "w2", Owner: "w2:20", Version: "test",
		DBChecks: []server.DBCheck{
			{Name: "local", Check: func(ctx context.Context) (any, error) { return nil, local.Check(ctx) }},
			{Name: "shared", Check: func(ctx context.Context) (any, error) {
				return map[string]string{"where": shared.Where()}, shared.Check(ctx)
			}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	tok, hash := store.NewAPIToken()
	if err := shared.AddToken(ctx, &store.APIToken{ID: "t", Name: "t", Hash: hash, Created: now}); err != nil {
		t.Fatal(err)
	}
	get := func(path string) (int, []byte) {
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		buf := make([]byte, 1<<16)
		for {
			n, err := resp.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		return resp.StatusCode, []byte(b.String())
	}

	code, body := get("/api/systems")
	var sys struct {
		Systems []server.SystemEntry `json:"systems"`
	}
	if err := json.Unmarshal(body, &sys); code != 200 || err != nil {
		t.Fatalf("/api/systems = %d %s", code, body)
	}
	var names []string
	for _, s := range sys.Systems {
		names = append(names, s.Owner)
	}
	if strings.Join(names, " ") != "w2:20 w1:10 w3:30" {
		t.Fatalf("/api/systems lists %v; want self (w2:20) first, then w1:10 and the stale w3:30", names)
	}
	self, w1, w3 := sys.Systems[0], sys.Systems[1], sys.Systems[2]
	if !self.Self || self.Scheduler == nil || self.Scheduler.MaxAgents != 4 || self.Tasks == nil || self.Host == "stale-row-of-self" {
		t.Errorf("self entry %+v: want live figures, its scheduler and the queue's counts", self)
	}
	if w1.Self || w1.Stale || w1.Agents != 1 || w1.Scheduler != nil || !w3.Stale {
		t.Errorf("w1 %+v, w3 %+v: want w1 fresh with 1 agent, w3 stale", w1, w3)
	}

	code, body = get("/health/db")
	if code != 200 || !strings.Contains(string(body), `"local":{"status":"ok"}`) || !strings.Contains(string(body), `"shared":{"status":"ok","detail":{"where":`) {
		t.Errorf("/health/db = %d %s; want both ok", code, body)
	}
	shared.Close()
	// The token, checked against the store a moment ago, still opens
	// /health/db; a token never seen does not.
	other, _ := store.NewAPIToken()
	req, _ := http.NewRequest("GET", ts.URL+"/health/db", nil)
	req.Header.Set("Authorization", "Bearer "+other)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 401 {
		t.Errorf("an unknown token while the token store is down: %v %v; want 401", resp.StatusCode, err)
	} else {
		resp.Body.Close()
	}
	code, body = get("/health/db")
	var down struct {
		Error  struct{ Code, Message string }
		Checks map[string]server.DBStatus
	}
	if err := json.Unmarshal(body, &down); err != nil || code != 503 || down.Error.Code != "db_unhealthy" ||
		!strings.HasPrefix(down.Error.Message, "shared: ") || down.Checks["local"].Status != "ok" || down.Checks["shared"].Status != "down" {
		t.Errorf("/health/db with the shared store gone = %d %s; want 503 naming shared, local ok", code, body)
	}
}
