package storesource

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/dashboard"
	"github.com/warden-dev/warden/internal/store"
)

// eventCols are the columns scanEvent reads (the sqlite package's order).
const eventCols = `id, ts_us, session_id, event, harness, tool, tool_use_id, agent_id, cwd, path,
	decision, rule, mode, reason, error, latency_us, duration_ms, raw, slept_ms`

func scanEvent(sc interface{ Scan(...any) error }) (store.Event, error) {
	var e store.Event
	var ts int64
	var dur sql.NullInt64
	var raw sql.NullString
	err := sc.Scan(&e.ID, &ts, &e.SessionID, &e.Event, &e.Harness, &e.Tool, &e.ToolUseID, &e.AgentID, &e.Cwd,
		&e.Path, &e.Decision, &e.Rule, &e.Mode, &e.Reason, &e.Error, &e.LatencyUS, &dur, &raw, &e.SleptMS)
	e.Time = time.UnixMicro(ts).UTC()
	if dur.Valid {
		d := dur.Int64
		e.DurationMS = &d
	}
	if raw.Valid {
		e.Raw = []byte(raw.String)
	}
	return e, err
}

// Events implements dashboard.Events. With AfterID the oldest Limit
// events after it come back (a stream must not skip any); without, the
// newest Limit. Either way oldest first.
func (s *Source) Events(ctx context.Context, f dashboard.EventFilter) ([]store.Event, error) {
	var where []string
	var args []any
	if f.Session != "" {
		// A prefix: the page shows 8-character ids.
		where = append(where, "substr(session_id, 1, ?) = ?")
		args = append(args, len(f.Session), f.Session)
	}
	for _, c := range []struct{ col, v string }{{"event", f.Event}, {"tool", f.Tool}, {"decision", f.Decision}} {
		if c.v != "" {
			where = append(where, c.col+" = ? COLLATE NOCASE")
			args = append(args, c.v)
		}
	}
	order := "DESC"
	if f.AfterID > 0 {
		where = append(where, "id > ?")
		args = append(args, f.AfterID)
		order = "ASC"
	}
	q := "SELECT " + eventCols + " FROM events"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY id " + order
	if f.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	rows, err := s.st.DB().QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("read events: %w", err)
	}
	defer rows.Close()
	var out []store.Event
	for rows.Next() {
		e, err := scanEvent(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if order == "DESC" {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out, nil
}

// event loads one event; nil when unknown.
func (s *Source) event(ctx context.Context, id int64) (*store.Event, error) {
	e, err := scanEvent(s.st.DB().QueryRowContext(ctx, "SELECT "+eventCols+" FROM events WHERE id = ?", id))
	if err == sql.ErrNoRows {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &e, nil
}
