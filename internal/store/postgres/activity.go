package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/warden-dev/warden/internal/store"
)

// The dashboard's read models (store.ActivityReader) over the shared
// store: the same results as internal/store/sqlite's activity.go, in as
// few round trips as the dialect allows, since this server is usually
// across a network (one query for every session's subagents, one for
// every overridden block's two rows).

// subagentsPerSession is how many subagents a session summary lists.
const subagentsPerSession = 20

// SessionSummaries lists each session with an event since since: its
// event count, first and newest event, directory and subagents.
func (s *Store) SessionSummaries(ctx context.Context, since time.Time) ([]store.SessionSummary, error) {
	rows, err := s.pool.Query(ctx, `WITH w AS (
			SELECT session_id, count(*) AS n, max(id) AS newest, min(ts_us) AS first, max(ts_us) AS last
			FROM events WHERE ts_us >= $1 AND session_id <> '' GROUP BY session_id)
		SELECT w.session_id, w.n, w.first, w.last, coalesce(s.cwd, ''), e.event, e.cwd
		FROM w JOIN events e ON e.id = w.newest LEFT JOIN sessions s ON s.id = w.session_id
		ORDER BY w.session_id`, since.UnixMicro())
	if err != nil {
		return nil, fmt.Errorf("read sessions: %w", err)
	}
	var out []store.SessionSummary
	index := map[string]int{}
	for rows.Next() {
		var ss store.SessionSummary
		var first, last int64
		var evCwd string
		if err := rows.Scan(&ss.ID, &ss.Events, &first, &last, &ss.Cwd, &ss.LastEvent, &evCwd); err != nil {
			rows.Close()
			return nil, err
		}
		ss.Started, ss.Updated = micros(first), micros(last)
		if ss.Cwd == "" {
			ss.Cwd = evCwd // the session row's directory, else its newest event's
		}
		index[ss.ID] = len(out)
		out = append(out, ss)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read sessions: %w", err)
	}
	if len(out) == 0 {
		return out, nil
	}
	// Every session's newest subagents in one query: a window per session
	// keeps the newest subagentsPerSession.
	rows, err = s.pool.Query(ctx, `SELECT session_id, agent_id, last, stopped FROM (
			SELECT session_id, agent_id, max(ts_us) AS last, bool_or(event = 'SubagentStop') AS stopped,
				row_number() OVER (PARTITION BY session_id ORDER BY max(ts_us) DESC, agent_id) AS rank
			FROM events WHERE ts_us >= $1 AND session_id <> '' AND agent_id <> ''
			GROUP BY session_id, agent_id) a
		WHERE rank <= $2 ORDER BY session_id, rank`, since.UnixMicro(), subagentsPerSession)
	if err != nil {
		return nil, fmt.Errorf("read subagents: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var sess string
		var a store.SubagentSummary
		var last int64
		if err := rows.Scan(&sess, &a.ID, &last, &a.Stopped); err != nil {
			return nil, err
		}
		a.Updated = micros(last)
		if i, ok := index[sess]; ok {
			out[i].Subagents = append(out[i].Subagents, a)
		}
	}
	return out, rows.Err()
}

// RuleDecisionCounts counts events that named a rule since since, per rule
// and decision.
func (s *Store) RuleDecisionCounts(ctx context.Context, since time.Time) ([]store.RuleDecisions, error) {
	rows, err := s.pool.Query(ctx, `SELECT rule, decision, count(*), max(ts_us), max(mode)
		FROM events WHERE rule <> '' AND ts_us >= $1 GROUP BY rule, decision`, since.UnixMicro())
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
		r.Last = micros(last)
		out = append(out, r)
	}
	return out, rows.Err()
}

// maxOverrides caps Overrides, as the SQLite store does.
const maxOverrides = 200

// Overrides finds blocks (deny or ask, with a rule) at PreToolUse or
// PermissionRequest since since that were followed within within, in the
// same session, by the call running anyway: a PostToolUse of the same
// tool_use_id (an ask the user approved), or of the same tool on the same
// file. The first such follow-up per block, newest blocks first, at most
// 200.
func (s *Store) Overrides(ctx context.Context, since time.Time, within time.Duration) ([]store.Override, error) {
	rows, err := s.pool.Query(ctx, `SELECT b.id, f.id FROM events b
		CROSS JOIN LATERAL (SELECT f.id FROM events f WHERE f.session_id = b.session_id AND f.id > b.id
			AND f.ts_us <= b.ts_us + $1 AND f.event = 'PostToolUse' AND f.tool = b.tool
			AND ((b.tool_use_id <> '' AND f.tool_use_id = b.tool_use_id) OR (b.path <> '' AND f.path = b.path))
			ORDER BY f.id LIMIT 1) f
		WHERE b.ts_us >= $2 AND b.decision IN ('deny', 'ask') AND b.rule <> '' AND b.session_id <> ''
			AND b.event IN ('PreToolUse', 'PermissionRequest')
		ORDER BY b.id DESC LIMIT $3`, within.Microseconds(), since.UnixMicro(), maxOverrides)
	if err != nil {
		return nil, fmt.Errorf("find overridden blocks: %w", err)
	}
	var pairs [][2]int64
	var ids []int64
	for rows.Next() {
		var p [2]int64
		if err := rows.Scan(&p[0], &p[1]); err != nil {
			rows.Close()
			return nil, err
		}
		pairs = append(pairs, p)
		ids = append(ids, p[0], p[1])
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("find overridden blocks: %w", err)
	}
	out := make([]store.Override, 0, len(pairs))
	if len(pairs) == 0 {
		return out, nil
	}
	evs, err := s.queryEvents(ctx, "SELECT "+eventCols+" FROM events WHERE id = ANY($1)", ids)
	if err != nil {
		return nil, fmt.Errorf("read overridden blocks: %w", err)
	}
	byID := make(map[int64]store.Event, len(evs))
	for _, e := range evs {
		byID[e.ID] = e
	}
	for _, p := range pairs {
		b, okB := byID[p[0]]
		f, okF := byID[p[1]]
		if !okB || !okF {
			// Retention deleted them between the two queries.
			return nil, fmt.Errorf("read overridden block %d: its rows are gone (pruned meanwhile?)", p[0])
		}
		out = append(out, store.Override{Block: b, Followed: f})
	}
	return out, nil
}

// SearchEvents lists events matching q, oldest first (see store.EventQuery).
func (s *Store) SearchEvents(ctx context.Context, eq store.EventQuery) ([]store.Event, error) {
	q, p, newest := searchQuery(eq)
	out, err := s.queryEvents(ctx, q, p...)
	if err != nil {
		return nil, fmt.Errorf("read events: %w", err)
	}
	if newest {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out, nil
}

// searchQuery is SearchEvents' statement and arguments, and whether it
// reads newest first. The folded comparisons match the indexes of
// migration 0065 expression for expression (a test EXPLAINs this very
// statement).
func searchQuery(eq store.EventQuery) (string, params, bool) {
	var p params
	var where []string
	if eq.SessionPrefix != "" {
		where = append(where, "starts_with(session_id, "+p.add(eq.SessionPrefix)+")")
	}
	for _, c := range []struct{ col, v string }{{"event", eq.Event}, {"tool", eq.Tool}, {"decision", eq.Decision}} {
		if c.v != "" {
			// SQLite's COLLATE NOCASE folds ASCII only; so does this.
			where = append(where, asciiLower(c.col)+" = "+asciiLower(p.add(c.v)))
		}
	}
	order := "DESC"
	if eq.AfterID > 0 {
		where = append(where, "id > "+p.add(eq.AfterID))
		order = "ASC"
	}
	q := "SELECT " + eventCols + " FROM events"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY id " + order
	if eq.Limit > 0 {
		q += " LIMIT " + p.add(eq.Limit)
	}
	return q, p, order == "DESC"
}

// asciiLower folds A–Z in a text expression, whatever the database's
// collation and encoding: what SQLite's NOCASE compares.
func asciiLower(expr string) string {
	return "translate(" + expr + "::text, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"
}

// Event loads one event; nil when unknown.
func (s *Store) Event(ctx context.Context, id int64) (*store.Event, error) {
	e, err := scanEvent(s.pool.QueryRow(ctx, "SELECT "+eventCols+" FROM events WHERE id = $1", id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read event %d: %w", id, err)
	}
	return &e, nil
}

var _ store.ActivityReader = (*Store)(nil)
