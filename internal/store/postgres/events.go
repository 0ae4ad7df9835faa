package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/warden-dev/warden/internal/store"
)

// eventCols are the events columns scanEvent reads, in its order.
const eventCols = `id, ts_us, session_id, event, harness, tool, tool_use_id, agent_id, cwd, path,
	decision, rule, mode, reason, error, latency_us, duration_ms, raw, prev_hash, hash, slept_ms,
	hash_before, hash_after, lines_added, lines_removed, task_id, detail`

const insertEvent = `INSERT INTO events (` + eventCols + `)
	VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26,$27)`

// chainTip is the id and hash the next row links to: the newest row, or
// the anchor retention left when it deleted every row.
func chainTip(ctx context.Context, q querier) (int64, string, error) {
	var id int64
	var hash string
	err := q.QueryRow(ctx, "SELECT id, hash FROM events ORDER BY id DESC LIMIT 1").Scan(&id, &hash)
	if err == nil {
		return id, hash, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return 0, "", err
	}
	var anchor string
	err = q.QueryRow(ctx, "SELECT value FROM settings WHERE key = $1", store.SettingChainAnchor).Scan(&anchor)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, "", nil
	}
	if err != nil {
		return 0, "", err
	}
	idStr, hash, _ := strings.Cut(anchor, " ")
	id, _ = strconv.ParseInt(idStr, 10, 64)
	return id, hash, nil
}

// EventsPage is a forward page of events for the daemon's API: at most
// limit events with id > after, oldest first, optionally of one session and
// not older than since.
func (s *Store) EventsPage(ctx context.Context, after int64, session string, since time.Time, limit int) ([]store.Event, error) {
	p := params{after}
	q := "SELECT " + eventCols + " FROM events WHERE id > $1"
	if session != "" {
		q += " AND session_id = " + p.add(session)
	}
	if !since.IsZero() {
		q += " AND ts_us >= " + p.add(since.UnixMicro())
	}
	q += " ORDER BY id LIMIT " + p.add(limit)
	out, err := s.queryEvents(ctx, q, p...)
	if err != nil {
		return nil, fmt.Errorf("page events: %w", err)
	}
	if out == nil {
		out = []store.Event{}
	}
	return out, nil
}

// SessionsPage lists sessions, most recently updated first (state left
// out: it is the hooks' business).
func (s *Store) SessionsPage(ctx context.Context, limit int) ([]store.Session, error) {
	rows, err := s.pool.Query(ctx, "SELECT id, cwd, started_us, updated_us FROM sessions ORDER BY updated_us DESC LIMIT $1", limit)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	out := []store.Session{}
	for rows.Next() {
		var ss store.Session
		var st, up int64
		if err := rows.Scan(&ss.ID, &ss.Cwd, &st, &up); err != nil {
			return nil, err
		}
		ss.Started, ss.Updated = micros(st), micros(up)
		out = append(out, ss)
	}
	return out, rows.Err()
}

func (s *Store) queryEvents(ctx context.Context, q string, args ...any) ([]store.Event, error) {
	rows, err := s.pool.Query(ctx, q, args...)
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

// scanEvent reads one row of eventCols.
func scanEvent(sc pgx.Row) (store.Event, error) {
	var e store.Event
	var ts int64
	var raw *string
	if err := sc.Scan(&e.ID, &ts, &e.SessionID, &e.Event, &e.Harness, &e.Tool, &e.ToolUseID,
		&e.AgentID, &e.Cwd, &e.Path, &e.Decision, &e.Rule, &e.Mode, &e.Reason, &e.Error,
		&e.LatencyUS, &e.DurationMS, &raw, &e.PrevHash, &e.Hash, &e.SleptMS,
		&e.HashBefore, &e.HashAfter, &e.LinesAdded, &e.LinesRemoved, &e.TaskID, &e.Detail); err != nil {
		return e, err
	}
	e.Time = micros(ts)
	if raw != nil {
		e.Raw = []byte(*raw)
	}
	return e, nil
}

// micros turns a stored *_us column back into a UTC time.
func micros(us int64) time.Time { return time.UnixMicro(us).UTC() }
