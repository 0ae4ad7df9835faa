package server

import (
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"time"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/task"
)

func (s *Server) listAgents(w http.ResponseWriter, r *http.Request) {
	if bad := unknownParams(r.URL.Query()); bad != "" {
		writeError(w, http.StatusBadRequest, "bad_request", bad)
		return
	}
	if s.o.Agents != nil {
		as, err := s.o.Agents.List(r.Context())
		if err != nil {
			writeError(w, http.StatusInternalServerError, "internal", err.Error())
			return
		}
		if as == nil {
			as = []AgentInfo{}
		}
		writeJSON(w, http.StatusOK, map[string]any{"agents": as})
		return
	}
	// Without the agents feature, the active tasks are the agents.
	ts, err := s.o.Tasks.Tasks(r.Context(), task.Filter{Statuses: []task.Status{task.Claimed, task.Running, task.Paused}})
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", err.Error())
		return
	}
	as := []AgentInfo{}
	for _, t := range ts {
		since := t.UpdatedAt
		if t.StartedAt != nil {
			since = *t.StartedAt
		}
		kind := t.Agent
		if kind == "" {
			kind = "claude-p"
		}
		state := t.AgentState
		if state == "" {
			state = string(t.Status)
		}
		as = append(as, AgentInfo{TaskID: t.ID, Kind: kind, State: state, Ref: t.AgentRef, Project: t.Project, Since: since})
	}
	writeJSON(w, http.StatusOK, map[string]any{"agents": as})
}

// Project is one entry of /api/projects.
type Project struct {
	Path     string    `json:"path"`
	Tasks    int       `json:"tasks"`
	Sessions int       `json:"sessions"`
	LastSeen time.Time `json:"last_seen"`
}

func (s *Server) listProjects(w http.ResponseWriter, r *http.Request) {
	if bad := unknownParams(r.URL.Query()); bad != "" {
		writeError(w, http.StatusBadRequest, "bad_request", bad)
		return
	}
	by := map[string]*Project{}
	get := func(p string) *Project {
		if by[p] == nil {
			by[p] = &Project{Path: p}
		}
		return by[p]
	}
	ts, err := s.o.Tasks.Tasks(r.Context(), task.Filter{Limit: 1000})
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", err.Error())
		return
	}
	for _, t := range ts {
		p := get(t.Project)
		p.Tasks++
		if t.UpdatedAt.After(p.LastSeen) {
			p.LastSeen = t.UpdatedAt
		}
	}
	ss, err := s.o.Events.SessionsPage(r.Context(), 1000)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", err.Error())
		return
	}
	for _, se := range ss {
		if se.Cwd == "" {
			continue
		}
		p := get(se.Cwd)
		p.Sessions++
		if se.Updated.After(p.LastSeen) {
			p.LastSeen = se.Updated
		}
	}
	out := make([]Project, 0, len(by))
	for _, p := range by {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LastSeen.After(out[j].LastSeen) })
	writeJSON(w, http.StatusOK, map[string]any{"projects": out})
}

func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if bad := unknownParams(q, "limit"); bad != "" {
		writeError(w, http.StatusBadRequest, "bad_request", bad)
		return
	}
	n, ok := limitParam(w, q.Get("limit"), 100, 1000)
	if !ok {
		return
	}
	ss, err := s.o.Events.SessionsPage(r.Context(), n)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", err.Error())
		return
	}
	if ss == nil {
		ss = []store.Session{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"sessions": ss})
}

// EventsPage is GET /api/events: a page and the cursor of the next one.
type EventsPage struct {
	Events []store.Event `json:"events"`
	// Next is the cursor to pass as ?since= for the following page (the
	// last event's id; the same cursor again when the page was empty).
	Next int64 `json:"next"`
	// Source is the store that answered ("local" or "shared"): ids are
	// that store's, so a client paging by id starts again when it changes.
	Source string `json:"source,omitempty"`
}

// listEvents pages forward through the record: ?since= is a cursor (an
// event id; 0 or empty from the start) or an RFC 3339 time.
func (s *Server) listEvents(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if bad := unknownParams(q, "since", "session", "limit"); bad != "" {
		writeError(w, http.StatusBadRequest, "bad_request", bad)
		return
	}
	var after int64
	var since time.Time
	if v := q.Get("since"); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
			after = n
		} else if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
			since = t
		} else {
			writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("since %q: want an event id (the previous page's next) or an RFC 3339 time", v))
			return
		}
	}
	n, ok := limitParam(w, q.Get("limit"), 100, 1000)
	if !ok {
		return
	}
	sess := q.Get("session")
	if len(sess) > 200 {
		writeError(w, http.StatusBadRequest, "bad_request", "session id longer than 200 bytes")
		return
	}
	evs, err := s.o.Events.EventsPage(r.Context(), after, sess, since, n)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", err.Error())
		return
	}
	p := EventsPage{Events: evs, Next: after}
	if s.o.EventSource != nil {
		p.Source = s.o.EventSource()
	}
	if len(evs) > 0 {
		p.Next = evs[len(evs)-1].ID
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) getPace(w http.ResponseWriter, r *http.Request) {
	if bad := unknownParams(r.URL.Query()); bad != "" {
		writeError(w, http.StatusBadRequest, "bad_request", bad)
		return
	}
	if s.o.Pace == nil {
		writeError(w, http.StatusNotImplemented, "not_implemented", "pacing is not wired into this daemon")
		return
	}
	rec, err := s.o.Pace(r.Context(), s.o.Now())
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"pace": rec, "scheduler": s.o.Scheduler.Status()})
}

func (s *Server) getUsage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if bad := unknownParams(q, "report"); bad != "" {
		writeError(w, http.StatusBadRequest, "bad_request", bad)
		return
	}
	rep := q.Get("report")
	if rep == "" {
		rep = "daily"
	}
	if rep != "daily" && rep != "session" && rep != "blocks" {
		writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("report %q is unknown; use daily, session or blocks", rep))
		return
	}
	if s.o.Usage == nil {
		writeError(w, http.StatusNotImplemented, "not_implemented", "usage reports are not wired into this daemon")
		return
	}
	v, err := s.o.Usage(r.Context(), rep)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", err.Error())
		return
	}
	writeJSON(w, http.StatusOK, v)
}
