package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/httpstop"
	"github.com/warden-dev/warden/internal/store"
)

// liveRows is how many rows the live page starts with and keeps.
const liveRows = 300

// streamBatch is the most events one stream poll sends.
const streamBatch = 500

// heartbeat keeps proxies and the browser from closing an idle stream.
const heartbeat = 15 * time.Second

// DefaultTokenRecheck is how often a live stream checks its token again
// (Options.TokenRecheck): one indexed lookup by hash, so a revoked token's
// stream ends within seconds at no measurable cost.
const DefaultTokenRecheck = 2 * time.Second

// sessionEnded is the reload message of a stream whose token stopped
// being valid: the page reloads, which sends it to the login form.
const sessionEnded = "the session's token was revoked or has expired; log in again"

// row is one event as the live view shows it, rendered by live.html for
// the first page and by app.js from the stream's JSON for the rest.
type row struct {
	ID       int64       `json:"id"`
	Time     string      `json:"time"`  // local clock
	Stamp    string      `json:"stamp"` // RFC 3339, for <time datetime>
	Session  string      `json:"session"`
	Short    string      `json:"short"`
	Event    string      `json:"event"`
	Tool     string      `json:"tool"`
	Decision string      `json:"decision"`
	Rule     string      `json:"rule"`
	Reason   string      `json:"reason"`
	Facts    [][2]string `json:"facts"`
	Raw      string      `json:"raw,omitempty"`
}

func toRow(e store.Event) row {
	r := row{ID: e.ID, Time: e.Time.Local().Format("15:04:05"), Stamp: e.Time.UTC().Format(time.RFC3339Nano),
		Session: e.SessionID, Short: short(e.SessionID), Event: e.Event, Tool: e.Tool, Decision: e.Decision,
		Rule: e.Rule, Reason: e.Reason, Raw: rawJSON(e.Raw)}
	for _, f := range facts(e) {
		r.Facts = append(r.Facts, [2]string{f.K, f.V})
	}
	return r
}

// liveData is the live page.
type liveData struct {
	Filter EventFilter
	Rows   []row // newest first
	LastID int64
	Events []string // event names for the filter's suggestions
}

// eventNames suggested by the filter (the common ones; any name may be typed).
var eventNames = []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop",
	"SubagentStart", "SubagentStop", "SessionStart", "SessionEnd", "PreCompact", "Notification", "PermissionRequest"}

func filterFrom(r *http.Request) EventFilter {
	q := r.URL.Query()
	clean := func(k string) string {
		v := strings.TrimSpace(q.Get(k))
		if len(v) > 200 {
			v = v[:200]
		}
		return v
	}
	return EventFilter{Session: clean("session"), Event: clean("event"), Tool: clean("tool"), Decision: clean("decision")}
}

func (s *Server) live(w http.ResponseWriter, r *http.Request, tok string) {
	p := s.newPage("Live events", "live", tok)
	d := liveData{Filter: filterFrom(r), Events: eventNames}
	if s.opt.Sources.Events == nil {
		p.Missing = "the event store"
		p.Data = d
		s.render(w, r, http.StatusOK, "live", p)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), sourceTimeout)
	defer cancel()
	// The stream resumes after the newest event of the store, not of the
	// filtered rows: rows the filter hides now arrive hidden later.
	tip, err := s.opt.Sources.Events.Events(ctx, EventFilter{Limit: 1})
	s.fail(&p, "events", err)
	if len(tip) > 0 {
		d.LastID = tip[len(tip)-1].ID
		f := d.Filter
		f.Limit = liveRows
		evs, err := s.opt.Sources.Events.Events(ctx, f)
		s.fail(&p, "events", err)
		for i := len(evs) - 1; i >= 0; i-- {
			if evs[i].ID <= d.LastID {
				d.Rows = append(d.Rows, toRow(evs[i]))
			}
		}
	}
	p.Data = d
	s.render(w, r, http.StatusOK, "live", p)
}

// stream sends events after the client's last one as server-sent events:
// the Last-Event-ID header of a reconnecting EventSource, else ?after=
// from the page, else the newest now. Each event's id is its store id, so
// a reconnect resumes exactly where the connection dropped: no gap, no
// duplicate.
func (s *Server) stream(w http.ResponseWriter, r *http.Request) {
	src := s.opt.Sources.Events
	if src == nil {
		http.Error(w, "no event store", http.StatusNotFound)
		return
	}
	ctx := r.Context()
	after, err := resumePoint(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if after < 0 {
		tip, err := src.Events(ctx, EventFilter{Limit: 1})
		if err != nil {
			http.Error(w, "events: "+err.Error(), http.StatusInternalServerError)
			return
		}
		after = 0
		if len(tip) > 0 {
			after = tip[0].ID
		}
	}
	rc := http.NewResponseController(w)
	// A stream outlives the server's read and write timeouts: no body is
	// read, and each write sets its own deadline (send).
	_ = rc.SetReadDeadline(time.Time{})
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	// retry: how soon the browser reconnects after a drop.
	if !s.send(w, rc, "retry: 1000\n\n") {
		return
	}
	tick := time.NewTicker(s.opt.Poll)
	defer tick.Stop()
	lastWrite := time.Now()
	// The token was checked when the stream opened (requireToken); it is
	// checked again every TokenRecheck, since a stream is one request
	// that would otherwise outlive a revocation by hours.
	tok, lastCheck := s.token(r), time.Now()
	source := s.eventSource().Name
	// reload ends the stream and has the page load afresh: EventSource
	// would reconnect with this store's last id, which means nothing to
	// another store or another handler.
	reload := func() { s.send(w, rc, "event: reload\ndata: "+strconv.Quote(s.eventSource().Text)+"\n\n") }
	for {
		select {
		case <-s.retired:
			// The daemon serves another handler now (Retire).
			reload()
			return
		default:
		}
		if time.Since(lastCheck) >= s.opt.TokenRecheck {
			lastCheck = time.Now()
			if !s.stillValid(ctx, tok) {
				if ctx.Err() == nil {
					s.send(w, rc, "event: reload\ndata: "+strconv.Quote(sessionEnded)+"\n\n")
				}
				return
			}
		}
		qctx, cancel := context.WithTimeout(ctx, sourceTimeout)
		evs, err := src.Events(qctx, EventFilter{AfterID: after, Limit: streamBatch})
		cancel()
		if s.eventSource().Name != source {
			// Another store answers now (the shared one stopped or came
			// back): its ids are not the ones this stream counted, so the
			// page starts again rather than resume by id.
			reload()
			return
		}
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			s.opt.Log.Error("dashboard: stream", "err", err)
			// Tell the page, and let it reconnect from its last id.
			s.send(w, rc, "event: problem\ndata: "+strconv.Quote(err.Error())+"\n\n")
			return
		}
		var b strings.Builder
		for _, e := range evs {
			data, _ := json.Marshal(toRow(e))
			fmt.Fprintf(&b, "id: %d\nevent: ev\ndata: %s\n\n", e.ID, data)
			after = e.ID
		}
		switch {
		case b.Len() > 0:
			if !s.send(w, rc, b.String()) {
				return
			}
			lastWrite = time.Now()
		case time.Since(lastWrite) >= heartbeat:
			if !s.send(w, rc, ": ping\n\n") {
				return
			}
			lastWrite = time.Now()
		}
		if len(evs) == streamBatch {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-httpstop.Done(ctx):
			// The daemon is stopping: the page's EventSource reconnects
			// to the next one from its last id.
			return
		case <-s.retired:
			reload()
			return
		case <-tick.C:
		}
	}
}

// stillValid checks an open stream's token again. An error of the check
// itself (not a verdict) keeps the stream: the daemon's check already
// rides out a token store that does not answer for a while.
func (s *Server) stillValid(ctx context.Context, tok string) bool {
	cctx, cancel := context.WithTimeout(ctx, sourceTimeout)
	defer cancel()
	ok, err := s.opt.CheckToken(cctx, tok)
	if err != nil {
		s.opt.Log.Warn("dashboard: stream token check", "err", err)
		return true
	}
	return ok
}

// send writes and flushes under a deadline, so a client that stopped
// reading cannot hold the stream forever.
func (s *Server) send(w http.ResponseWriter, rc *http.ResponseController, text string) bool {
	_ = rc.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if _, err := w.Write([]byte(text)); err != nil {
		return false
	}
	return rc.Flush() == nil
}

// resumePoint is the id to send events after; -1: from now.
func resumePoint(r *http.Request) (int64, error) {
	v := r.Header.Get("Last-Event-ID")
	name := "Last-Event-ID"
	if v == "" {
		v, name = r.URL.Query().Get("after"), "after"
	}
	if v == "" {
		return -1, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s %q: want a non-negative event id", name, v)
	}
	return n, nil
}
