package server

import (
	"context"
	"net/http"
	"os"
	"time"

	"github.com/warden-dev/warden/internal/orchestrator"
	"github.com/warden-dev/warden/internal/pool"
	"github.com/warden-dev/warden/internal/storeguard"
	"github.com/warden-dev/warden/internal/task"
)

// SystemLister lists the workers sharing this daemon's queue (the
// systems registry, internal/pool); nil: this daemon alone.
type SystemLister func(ctx context.Context, now time.Time) ([]pool.System, error)

// SystemEntry is one entry of /api/systems: a worker as its heartbeat
// reports it; this daemon's own entry (Self) adds its scheduler and the
// queue's counts.
type SystemEntry struct {
	pool.System
	Self      bool                      `json:"self"`
	Scheduler *orchestrator.SchedStatus `json:"scheduler,omitempty"`
	Tasks     map[string]int            `json:"tasks,omitempty"`
	// StoreFault, on this daemon's entry: its store stopped taking
	// writes, so it takes no new work (package storeguard).
	StoreFault *storeguard.Fault `json:"store_fault,omitempty"`
}

func (s *Server) listSystems(w http.ResponseWriter, r *http.Request) {
	if bad := unknownParams(r.URL.Query()); bad != "" {
		writeError(w, http.StatusBadRequest, "bad_request", bad)
		return
	}
	counts, err := s.o.Tasks.CountTasks(r.Context())
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", err.Error())
		return
	}
	tc := map[string]int{}
	for _, st := range task.Statuses {
		tc[string(st)] = counts[st]
	}
	now := s.o.Now().UTC()
	sched := s.o.Scheduler.Status()
	host, _ := os.Hostname()
	self := SystemEntry{System: pool.System{Owner: s.o.Owner, Name: s.o.System, Host: host, PID: os.Getpid(),
		Version: s.o.Version, Agents: sched.Running, MaxAgents: sched.MaxAgents, Load1: pool.Load1(),
		Started: s.o.Started.UTC(), Heartbeat: now}, Self: true, Scheduler: &sched, Tasks: tc, StoreFault: s.storeFault()}
	out := []SystemEntry{}
	if s.o.Systems != nil {
		rows, err := s.o.Systems(r.Context(), now)
		if err != nil {
			writeError(w, http.StatusInternalServerError, "internal", "list the pool's systems: "+err.Error())
			return
		}
		for _, row := range rows {
			if row.Owner == s.o.Owner {
				continue // listed first, with live figures
			}
			out = append(out, SystemEntry{System: row})
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"systems": append([]SystemEntry{self}, out...)})
}
