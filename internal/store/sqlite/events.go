package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

const insertEvent = `INSERT INTO events
	(ts_us, session_id, event, harness, tool, tool_use_id, agent_id, cwd, path,
	 decision, rule, mode, reason, error, latency_us, duration_ms, raw)
	VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`

const upsertSession = `INSERT INTO sessions (id, cwd, started_us, updated_us, state)
	VALUES (?,?,?,?,?)
	ON CONFLICT(id) DO UPDATE SET updated_us = excluded.updated_us, state = excluded.state,
	cwd = CASE WHEN excluded.cwd != '' THEN excluded.cwd ELSE sessions.cwd END`

// RecordHook implements store.Store.
func (s *Store) RecordHook(ctx context.Context, ev *store.Event, sess *store.Session) error {
	return retryLocked(ctx, func() error {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		var raw any
		if len(ev.Raw) > 0 {
			raw = string(ev.Raw)
		}
		if ev.Time.IsZero() {
			ev.Time = time.Now()
		}
		harness := ev.Harness
		if harness == "" {
			harness = "claude"
		}
		decision := ev.Decision
		if decision == "" {
			decision = "allow"
		}
		res, err := tx.ExecContext(ctx, insertEvent, ev.Time.UnixMicro(), ev.SessionID, ev.Event, harness,
			ev.Tool, ev.ToolUseID, ev.AgentID, ev.Cwd, ev.Path, decision, ev.Rule, ev.Mode, ev.Reason,
			ev.Error, ev.LatencyUS, ev.DurationMS, raw)
		if err != nil {
			return fmt.Errorf("record event: %w", err)
		}
		if sess != nil && sess.ID != "" {
			state := string(sess.State)
			if state == "" {
				state = "{}"
			}
			now := time.Now().UnixMicro()
			if _, err := tx.ExecContext(ctx, upsertSession, sess.ID, sess.Cwd, now, now, state); err != nil {
				return fmt.Errorf("save session: %w", err)
			}
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		ev.ID, _ = res.LastInsertId()
		return nil
	})
}

// Events implements store.Store.
func (s *Store) Events(ctx context.Context, f store.Filter) ([]store.Event, error) {
	var where []string
	var args []any
	if f.SessionID != "" {
		where = append(where, "session_id = ?")
		args = append(args, f.SessionID)
	}
	if f.Event != "" {
		where = append(where, "event = ?")
		args = append(args, f.Event)
	}
	if !f.Since.IsZero() {
		where = append(where, "ts_us >= ?")
		args = append(args, f.Since.UnixMicro())
	}
	if f.AfterID > 0 {
		where = append(where, "id > ?")
		args = append(args, f.AfterID)
	}
	q := `SELECT id, ts_us, session_id, event, harness, tool, tool_use_id, agent_id, cwd, path,
		decision, rule, mode, reason, error, latency_us, duration_ms, raw FROM events`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY id DESC"
	if f.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list events: %w", err)
	}
	defer rows.Close()
	var out []store.Event
	for rows.Next() {
		var e store.Event
		var ts int64
		var dur sql.NullInt64
		var raw sql.NullString
		if err := rows.Scan(&e.ID, &ts, &e.SessionID, &e.Event, &e.Harness, &e.Tool, &e.ToolUseID,
			&e.AgentID, &e.Cwd, &e.Path, &e.Decision, &e.Rule, &e.Mode, &e.Reason, &e.Error,
			&e.LatencyUS, &dur, &raw); err != nil {
			return nil, err
		}
		e.Time = time.UnixMicro(ts).UTC()
		if dur.Valid {
			d := dur.Int64
			e.DurationMS = &d
		}
		if raw.Valid {
			e.Raw = []byte(raw.String)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// Oldest first for display; the query took the newest Limit.
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

// Prune implements store.Store.
func (s *Store) Prune(ctx context.Context, before time.Time) (int64, int64, error) {
	var ne, ns int64
	err := retryLocked(ctx, func() error {
		r, err := s.db.ExecContext(ctx, "DELETE FROM events WHERE ts_us < ?", before.UnixMicro())
		if err != nil {
			return err
		}
		ne, _ = r.RowsAffected()
		r, err = s.db.ExecContext(ctx, "DELETE FROM sessions WHERE updated_us < ?", before.UnixMicro())
		if err != nil {
			return err
		}
		ns, _ = r.RowsAffected()
		return nil
	})
	return ne, ns, err
}

// DecisionCounts implements store.Store.
func (s *Store) DecisionCounts(ctx context.Context, since time.Time) (map[string]int, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT decision, count(*) FROM events WHERE ts_us >= ? GROUP BY decision", since.UnixMicro())
	if err != nil {
		return nil, fmt.Errorf("count events: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var d string
		var n int
		if err := rows.Scan(&d, &n); err != nil {
			return nil, err
		}
		out[d] = n
	}
	return out, rows.Err()
}
