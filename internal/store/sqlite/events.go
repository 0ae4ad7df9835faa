package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

const insertEvent = `INSERT INTO events
	(id, ts_us, session_id, event, harness, tool, tool_use_id, agent_id, cwd, path,
	 decision, rule, mode, reason, error, latency_us, duration_ms, raw, prev_hash, hash, slept_ms,
	 hash_before, hash_after, lines_added, lines_removed, task_id, detail, spans)
	VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`

const upsertSession = `INSERT INTO sessions (id, cwd, started_us, updated_us, state, sig)
	VALUES (?,?,?,?,?,?)
	ON CONFLICT(id) DO UPDATE SET updated_us = excluded.updated_us, state = excluded.state,
	sig = excluded.sig, cwd = CASE WHEN excluded.cwd != '' THEN excluded.cwd ELSE sessions.cwd END`

// chainTip is the id and hash the next row links to: the newest row, or
// the anchor retention left when it deleted every row.
func chainTip(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (int64, string, error) {
	var id int64
	var hash string
	err := q.QueryRowContext(ctx, chainTipQuery).Scan(&id, &hash)
	if err == nil {
		return id, hash, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, "", err
	}
	var anchor string
	err = q.QueryRowContext(ctx, settingQuery, store.SettingChainAnchor).Scan(&anchor)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", nil
	}
	if err != nil {
		return 0, "", err
	}
	idStr, hash, _ := strings.Cut(anchor, " ")
	id, _ = strconv.ParseInt(idStr, 10, 64)
	return id, hash, nil
}

// RecordHook implements store.Store.
func (s *Store) RecordHook(ctx context.Context, ev *store.Event, sess *store.Session) error {
	s.wmu.Lock() // see Store.wmu
	defer s.wmu.Unlock()
	s.warm(ctx, chainTipQuery, settingQuery, insertEvent, upsertSession)
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
		if ev.Decision == "" {
			ev.Decision = "allow"
		}
		ev.Harness = harness
		// The write lock is held (immediate transaction), so the tip cannot
		// move under us: rows are chained in id order. Nothing below waits
		// for a lock any more: the statements run without watching ctx
		// (see lookupCtx); BeginTx above did, for the lock.
		q := cachedTx{s, tx}
		ctx := lookupCtx(ctx)
		lastID, prev, err := chainTip(ctx, q)
		if err != nil {
			return fmt.Errorf("record event: read chain tip: %w", err)
		}
		ev.ID = lastID + 1
		ev.Time = time.UnixMicro(ev.Time.UnixMicro()).UTC() // the precision stored
		ev.PrevHash, ev.Hash = prev, store.ChainHash(prev, ev)
		if _, err := q.ExecContext(ctx, insertEvent, ev.ID, ev.Time.UnixMicro(), ev.SessionID, ev.Event, harness,
			ev.Tool, ev.ToolUseID, ev.AgentID, ev.Cwd, ev.Path, ev.Decision, ev.Rule, ev.Mode, ev.Reason,
			ev.Error, ev.LatencyUS, ev.DurationMS, raw, ev.PrevHash, ev.Hash, ev.SleptMS,
			ev.HashBefore, ev.HashAfter, ev.LinesAdded, ev.LinesRemoved, ev.TaskID, ev.Detail, ev.Spans); err != nil {
			return fmt.Errorf("record event: %w", err)
		}
		if err := saveSession(ctx, q, sess); err != nil {
			return err
		}
		return tx.Commit()
	})
}

// SaveSession implements store.Store.
func (s *Store) SaveSession(ctx context.Context, sess *store.Session) error {
	return retryLocked(ctx, func() error { return saveSession(ctx, cachedDB{s}, sess) })
}

func saveSession(ctx context.Context, db interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, sess *store.Session) error {
	if sess == nil || sess.ID == "" {
		return nil
	}
	state := string(sess.State)
	if state == "" {
		state = "{}"
	}
	now := time.Now().UnixMicro()
	if _, err := db.ExecContext(ctx, upsertSession, sess.ID, sess.Cwd, now, now, state, sess.Sig); err != nil {
		return fmt.Errorf("save session: %w", err)
	}
	return nil
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
	if f.TaskID != "" {
		where = append(where, "task_id = ?")
		args = append(args, f.TaskID)
	}
	if f.Harness != "" {
		where = append(where, "harness = ?")
		args = append(args, f.Harness)
	}
	if !f.Since.IsZero() {
		where = append(where, "ts_us >= ?")
		args = append(args, f.Since.UnixMicro())
	}
	if f.AfterID > 0 {
		where = append(where, "id > ?")
		args = append(args, f.AfterID)
	}
	q := "SELECT " + eventCols + " FROM events"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY id DESC"
	if f.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	out, err := s.queryEvents(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list events: %w", err)
	}
	// Oldest first for display; the query took the newest Limit.
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
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

// timeFromMicros turns a stored ts_us back into a UTC time.
func timeFromMicros(us int64) time.Time { return time.UnixMicro(us).UTC() }

// eventCols are the events columns scanEvent reads, in its order.
const eventCols = `id, ts_us, session_id, event, harness, tool, tool_use_id, agent_id, cwd, path,
	decision, rule, mode, reason, error, latency_us, duration_ms, raw, prev_hash, hash, slept_ms,
	hash_before, hash_after, lines_added, lines_removed, task_id, detail, spans`

// scanEvent reads one row of eventCols.
func scanEvent(sc interface{ Scan(...any) error }) (store.Event, error) {
	var e store.Event
	var ts int64
	var dur, added, removed sql.NullInt64
	var raw sql.NullString
	if err := sc.Scan(&e.ID, &ts, &e.SessionID, &e.Event, &e.Harness, &e.Tool, &e.ToolUseID,
		&e.AgentID, &e.Cwd, &e.Path, &e.Decision, &e.Rule, &e.Mode, &e.Reason, &e.Error,
		&e.LatencyUS, &dur, &raw, &e.PrevHash, &e.Hash, &e.SleptMS,
		&e.HashBefore, &e.HashAfter, &added, &removed, &e.TaskID, &e.Detail, &e.Spans); err != nil {
		return e, err
	}
	if added.Valid {
		e.LinesAdded = &added.Int64
	}
	if removed.Valid {
		e.LinesRemoved = &removed.Int64
	}
	e.Time = timeFromMicros(ts)
	if dur.Valid {
		d := dur.Int64
		e.DurationMS = &d
	}
	if raw.Valid {
		e.Raw = []byte(raw.String)
	}
	return e, nil
}

// queryEvents runs q, a SELECT of eventCols, and reads every row.
func (s *Store) queryEvents(ctx context.Context, q string, args ...any) ([]store.Event, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
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
	return out, rows.Err()
}
