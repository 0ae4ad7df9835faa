package server

import (
	"context"
	"net/http"
	"time"
)

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "version": s.o.Version,
		"uptime_s": int64(s.o.Now().Sub(s.o.Started).Seconds())})
}

func (s *Server) healthDB(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	if err := s.o.Events.Check(ctx); err != nil {
		writeError(w, http.StatusServiceUnavailable, "db_unhealthy", err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok"})
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
