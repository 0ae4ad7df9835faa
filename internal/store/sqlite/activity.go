package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// The dashboard's read models (store.SessionSummary, …), computed here so
// no SQL lives outside the store.

// SessionSummaries lists each session with an event since since: its
// event count, first and newest event, directory and subagents.
func (s *Store) SessionSummaries(ctx context.Context, since time.Time) ([]store.SessionSummary, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT e.session_id, count(*), max(e.id), min(e.ts_us), max(e.ts_us),
		coalesce((SELECT cwd FROM sessions WHERE id = e.session_id), '')
		FROM events e WHERE e.ts_us >= ? AND e.session_id != '' GROUP BY e.session_id`, since.UnixMicro())
	if err != nil {
		return nil, fmt.Errorf("read sessions: %w", err)
	}
	var out []store.SessionSummary
	var newestIDs []int64
	for rows.Next() {
		var ss store.SessionSummary
		var newestID, first, newest int64
		if err := rows.Scan(&ss.ID, &ss.Events, &newestID, &first, &newest, &ss.Cwd); err != nil {
			rows.Close()
			return nil, err
		}
		ss.Started, ss.Updated = timeFromMicros(first), timeFromMicros(newest)
		out = append(out, ss)
		newestIDs = append(newestIDs, newestID)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		var ev, cwd string
		if err := s.db.QueryRowContext(ctx, "SELECT event, cwd FROM events WHERE id = ?", newestIDs[i]).Scan(&ev, &cwd); err != nil {
			return nil, err
		}
		out[i].LastEvent = ev
		if out[i].Cwd == "" {
			out[i].Cwd = cwd
		}
		if out[i].Subagents, err = s.subagents(ctx, out[i].ID, since); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// subagents are a session's subagents seen since since, newest first.
func (s *Store) subagents(ctx context.Context, session string, since time.Time) ([]store.SubagentSummary, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT agent_id, max(ts_us), max(CASE WHEN event = 'SubagentStop' THEN 1 ELSE 0 END)
		FROM events WHERE session_id = ? AND agent_id != '' AND ts_us >= ? GROUP BY agent_id ORDER BY max(ts_us) DESC LIMIT 20`,
		session, since.UnixMicro())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.SubagentSummary
	for rows.Next() {
		var a store.SubagentSummary
		var ts int64
		var stopped int
		if err := rows.Scan(&a.ID, &ts, &stopped); err != nil {
			return nil, err
		}
		a.Updated, a.Stopped = timeFromMicros(ts), stopped == 1
		out = append(out, a)
	}
	return out, rows.Err()
}

// RuleDecisionCounts counts events that named a rule since since, per rule
// and decision.
func (s *Store) RuleDecisionCounts(ctx context.Context, since time.Time) ([]store.RuleDecisions, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT rule, decision, count(*), max(ts_us), max(mode)
		FROM events WHERE rule != '' AND ts_us >= ? GROUP BY rule, decision`, since.UnixMicro())
	if err != nil {
		return nil, fmt.Errorf("count decisions: %w", err)
	}
	defer rows.Close()
	var out []store.RuleDecisions
	for rows.Next() {
		var r store.RuleDecisions
		var last int64
		if err := rows.Scan(&r.Rule, &r.Decision, &r.Count, &last, &r.Mode); err != nil {
			return nil, err
		}
		r.Last = timeFromMicros(last)
		out = append(out, r)
	}
	return out, rows.Err()
}

// Overrides finds blocks (deny or ask, with a rule) at PreToolUse or
// PermissionRequest since since that were followed within within, in the
// same session, by the call running anyway: a PostToolUse of the same
// tool_use_id (an ask the user approved), or of the same tool on the same
// file. The first such follow-up per block, newest blocks first, at most
// 200.
func (s *Store) Overrides(ctx context.Context, since time.Time, within time.Duration) ([]store.Override, error) {
	q := `SELECT b.id, (SELECT f.id FROM events f WHERE f.session_id = b.session_id AND f.id > b.id
			AND f.ts_us <= b.ts_us + ? AND f.event = 'PostToolUse' AND f.tool = b.tool
			AND ((b.tool_use_id != '' AND f.tool_use_id = b.tool_use_id) OR (b.path != '' AND f.path = b.path))
			ORDER BY f.id LIMIT 1) AS followed
		FROM events b
		WHERE b.ts_us >= ? AND b.decision IN ('deny', 'ask') AND b.rule != '' AND b.session_id != ''
			AND b.event IN ('PreToolUse', 'PermissionRequest') AND followed IS NOT NULL
		ORDER BY b.id DESC LIMIT 200`
	rows, err := s.db.QueryContext(ctx, q, within.Microseconds(), since.UnixMicro())
	if err != nil {
		return nil, fmt.Errorf("find overridden blocks: %w", err)
	}
	var pairs [][2]int64
	for rows.Next() {
		var p [2]int64
		if err := rows.Scan(&p[0], &p[1]); err != nil {
			rows.Close()
			return nil, err
		}
		pairs = append(pairs, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]store.Override, 0, len(pairs))
	for _, p := range pairs {
		b, err := s.Event(ctx, p[0])
		if err != nil || b == nil {
			return nil, fmt.Errorf("read event %d: %v", p[0], err)
		}
		f, err := s.Event(ctx, p[1])
		if err != nil || f == nil {
			return nil, fmt.Errorf("read event %d: %v", p[1], err)
		}
		out = append(out, store.Override{Block: *b, Followed: *f})
	}
	return out, nil
}

// SearchEvents lists events matching q, oldest first (see store.EventQuery).
func (s *Store) SearchEvents(ctx context.Context, eq store.EventQuery) ([]store.Event, error) {
	var where []string
	var args []any
	if eq.SessionPrefix != "" {
		where = append(where, "substr(session_id, 1, ?) = ?")
		args = append(args, len(eq.SessionPrefix), eq.SessionPrefix)
	}
	for _, c := range []struct{ col, v string }{{"event", eq.Event}, {"tool", eq.Tool}, {"decision", eq.Decision}} {
		if c.v != "" {
			where = append(where, c.col+" = ? COLLATE NOCASE")
			args = append(args, c.v)
		}
	}
	order := "DESC"
	if eq.AfterID > 0 {
		where = append(where, "id > ?")
		args = append(args, eq.AfterID)
		order = "ASC"
	}
	q := "SELECT " + eventCols + " FROM events"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY id " + order
	if eq.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", eq.Limit)
	}
	out, err := s.queryEvents(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("read events: %w", err)
	}
	if order == "DESC" {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out, nil
}

// Event loads one event; nil when unknown.
func (s *Store) Event(ctx context.Context, id int64) (*store.Event, error) {
	e, err := scanEvent(s.db.QueryRowContext(ctx, "SELECT "+eventCols+" FROM events WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &e, nil
}

var _ store.ActivityReader = (*Store)(nil)
