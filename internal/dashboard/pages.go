package dashboard

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/warden-dev/warden/internal/config"
)

// sourceTimeout bounds every data source call of a page.
const sourceTimeout = 5 * time.Second

// ActiveWindow is how recent a session's last event must be for the
// overview to list it as active.
const ActiveWindow = 30 * time.Minute

// overviewUsageWait is how long the overview waits for usage reports.
const overviewUsageWait = 150 * time.Millisecond

// overviewData is the overview page.
type overviewData struct {
	Pacing    *PacingView
	Sessions  []SessionInfo
	Tasks     []Task
	HaveTasks bool
	Today     *float64
	Counts    map[string]int
}

func (s *Server) overview(w http.ResponseWriter, r *http.Request, tok string) {
	p := s.newPage("Overview", "overview", tok)
	ctx, cancel := context.WithTimeout(WithToken(r.Context(), tok), sourceTimeout)
	defer cancel()
	d := overviewData{}
	now := s.opt.Now()
	src := s.opt.Sources
	if src.Pacing != nil {
		v, err := src.Pacing.Pacing(ctx, now)
		s.fail(&p, "pacing", err)
		d.Pacing = v
	}
	if src.Sessions != nil {
		v, err := src.Sessions.Sessions(ctx, now.Add(-ActiveWindow))
		s.fail(&p, "sessions", err)
		d.Sessions = v
	}
	if src.Tasks != nil {
		v, err := src.Tasks.List(ctx)
		s.fail(&p, "tasks", err)
		d.Tasks, d.HaveTasks = v, err == nil
	}
	if src.Usage != nil {
		// Today's cost only when the reports are at hand: a cold scan of
		// the transcripts must not hold up the first paint.
		uctx, cancel := context.WithTimeout(ctx, overviewUsageWait)
		v, err := src.Usage.Usage(uctx)
		cancel()
		if v != nil && err == nil {
			d.Today = &v.TodayCost
		}
	}
	p.Data = d
	s.render(w, r, http.StatusOK, "overview", p)
}

func (s *Server) pacingJSON(w http.ResponseWriter, r *http.Request) {
	if s.opt.Sources.Pacing == nil {
		http.Error(w, "no pacing source", http.StatusNotFound)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), sourceTimeout)
	defer cancel()
	v, err := s.opt.Sources.Pacing.Pacing(ctx, s.opt.Now())
	if err != nil {
		http.Error(w, "pacing: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(v)
}

// decisionsData is the decisions page.
type decisionsData struct {
	Since     string
	Rules     []RuleStat
	Overrides []Override
	Within    string
}

// OverrideWindow is how soon after a block a run of the same call counts
// as the user overriding it.
const OverrideWindow = 5 * time.Minute

// sinceParam reads ?since=24h|7d|30d (default 7d).
func sinceParam(r *http.Request, now time.Time) (time.Time, string) {
	switch v := r.URL.Query().Get("since"); v {
	case "24h":
		return now.Add(-24 * time.Hour), v
	case "30d":
		return now.AddDate(0, 0, -30), v
	default:
		return now.AddDate(0, 0, -7), "7d"
	}
}

func (s *Server) decisions(w http.ResponseWriter, r *http.Request, tok string) {
	p := s.newPage("Decisions", "decisions", tok)
	src := s.opt.Sources.Decisions
	if src == nil {
		p.Missing = "the decisions source"
		s.render(w, r, http.StatusOK, "decisions", p)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), sourceTimeout)
	defer cancel()
	since, label := sinceParam(r, s.opt.Now())
	d := decisionsData{Since: label, Within: human(OverrideWindow)}
	var err error
	d.Rules, err = src.RuleStats(ctx, since)
	s.fail(&p, "rule counts", err)
	d.Overrides, err = src.Overrides(ctx, since, OverrideWindow)
	s.fail(&p, "overrides", err)
	p.Data = d
	s.render(w, r, http.StatusOK, "decisions", p)
}

func (s *Server) explain(w http.ResponseWriter, r *http.Request, tok string) {
	p := s.newPage("Explain", "decisions", tok)
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		s.renderError(w, r, p, http.StatusBadRequest, "event id must be a positive number")
		return
	}
	if s.opt.Sources.Decisions == nil {
		p.Missing = "the decisions source"
		s.render(w, r, http.StatusOK, "explain", p)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), sourceTimeout)
	defer cancel()
	ex, err := s.opt.Sources.Decisions.Explain(ctx, id)
	if err != nil {
		s.renderError(w, r, p, http.StatusInternalServerError, "explain event "+strconv.FormatInt(id, 10)+": "+err.Error())
		return
	}
	if ex == nil {
		s.renderError(w, r, p, http.StatusNotFound, "no event "+strconv.FormatInt(id, 10)+" (pruned by retention?)")
		return
	}
	p.Data = ex
	s.render(w, r, http.StatusOK, "explain", p)
}

func (s *Server) renderError(w http.ResponseWriter, r *http.Request, p page, status int, msg string) {
	p.Title = "Error"
	p.Data = msg
	s.render(w, r, status, "error", p)
}

// judgementsData is the judgements page.
type judgementsData struct {
	Since  string
	Rows   []Judgement
	Calls  int
	Tokens int64
	Cost   float64
}

func (s *Server) judgements(w http.ResponseWriter, r *http.Request, tok string) {
	p := s.newPage("Judgements", "judgements", tok)
	if s.opt.Sources.Judgements == nil {
		p.Missing = "the judgements source"
		s.render(w, r, http.StatusOK, "judgements", p)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), sourceTimeout)
	defer cancel()
	since, label := sinceParam(r, s.opt.Now())
	rows, err := s.opt.Sources.Judgements.Judgements(ctx, since, 500)
	s.fail(&p, "judgements", err)
	d := judgementsData{Since: label, Rows: rows, Calls: len(rows)}
	for _, j := range rows {
		d.Tokens += j.TokensIn + j.TokensOut
		d.Cost += j.CostUSD
	}
	p.Data = d
	s.render(w, r, http.StatusOK, "judgements", p)
}

func (s *Server) usage(w http.ResponseWriter, r *http.Request, tok string) {
	p := s.newPage("Usage", "usage", tok)
	if s.opt.Sources.Usage == nil {
		p.Missing = "the usage source"
		s.render(w, r, http.StatusOK, "usage", p)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
	defer cancel()
	v, err := s.opt.Sources.Usage.Usage(ctx)
	s.fail(&p, "usage", err)
	p.Data = v
	s.render(w, r, http.StatusOK, "usage", p)
}

// settingsData is the settings page.
type settingsData struct {
	Settings []config.Setting
	Problems []config.Problem
}

func (s *Server) settings(w http.ResponseWriter, r *http.Request, tok string) {
	p := s.newPage("Settings", "settings", tok)
	if s.opt.Sources.Settings == nil {
		p.Missing = "the settings source"
		s.render(w, r, http.StatusOK, "settings", p)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), sourceTimeout)
	defer cancel()
	set, probs, err := s.opt.Sources.Settings.Settings(ctx)
	s.fail(&p, "settings", err)
	p.Data = settingsData{Settings: set, Problems: probs}
	s.render(w, r, http.StatusOK, "settings", p)
}
