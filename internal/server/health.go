package server

import (
	"context"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
)

// health answers 200 while the daemon runs; "status" is "degraded" while
// a configured shared store is not reachable yet. It is public (a liveness
// probe needs no token), so without a token it says only that: the exact
// build tells a stranger which bugs to try. With one it adds the version,
// the uptime and "shared_store": which, why and what waits for it.
func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	b := map[string]any{"status": "ok"}
	st := s.sharedState()
	if st != nil && st.State == Waiting {
		b["status"] = "degraded"
	}
	fault := s.storeFault()
	if fault != nil {
		b["status"] = "degraded"
	}
	if s.Authorized(r) {
		b["version"] = s.o.Version
		b["uptime_s"] = int64(s.o.Now().Sub(s.o.Started).Seconds())
		if st != nil {
			b["shared_store"] = st
		}
		if fault != nil {
			b["store_fault"] = fault
		}
		if s.o.ConfigStatus != nil {
			b["config"] = s.o.ConfigStatus() // which config.toml it applies
		}
	}
	writeJSON(w, http.StatusOK, b)
}

// DBCheck is one part of /health/db: the local store, the shared
// PostgreSQL store, the spool that ships one to the other. Check returns
// what to show about the part (nil for nothing) and an error when it is
// down. Features add theirs to Options.DBChecks.
type DBCheck struct {
	Name  string
	Check func(ctx context.Context) (detail any, err error)
}

// DBStatus is one part's entry in /health/db.
type DBStatus struct {
	Status string `json:"status"` // ok or down
	Error  string `json:"error,omitempty"`
	Detail any    `json:"detail,omitempty"`
}

// healthDB runs every check at once, each under the same 5 s deadline:
// 200 when all pass, 503 in the API's error shape naming the parts that
// are down; both carry every part's status under "checks".
func (s *Server) healthDB(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	checks := s.o.DBChecks
	if len(checks) == 0 {
		checks = []DBCheck{{Name: "store", Check: func(ctx context.Context) (any, error) { return nil, s.o.Events.Check(ctx) }}}
	}
	out := make(map[string]DBStatus, len(checks))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, c := range checks {
		wg.Go(func() {
			d, err := c.Check(ctx)
			st := DBStatus{Status: "ok", Detail: d}
			if err != nil {
				st.Status, st.Error = "down", err.Error()
			}
			mu.Lock()
			out[c.Name] = st
			mu.Unlock()
		})
	}
	wg.Wait()
	var down []string
	for name, st := range out {
		if st.Status != "ok" {
			down = append(down, name+": "+st.Error)
		}
	}
	if len(down) > 0 {
		sort.Strings(down)
		var b struct {
			errorBody
			Checks map[string]DBStatus `json:"checks"`
		}
		b.Error.Code, b.Error.Message, b.Checks = "db_unhealthy", strings.Join(down, "; "), out
		writeJSON(w, http.StatusServiceUnavailable, b)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "checks": out})
}

func (s *Server) healthTmux(w http.ResponseWriter, r *http.Request) {
	if s.o.Agents == nil {
		writeJSON(w, http.StatusOK, map[string]any{"status": "not_used", "detail": "agents run headless (claude -p); tmux is not needed"})
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	if err := s.o.Agents.Health(ctx); err != nil {
		writeError(w, http.StatusServiceUnavailable, "tmux_unhealthy", err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok"})
}
