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

const upsertSession = `INSERT INTO sessions (id, cwd, started_us, updated_us, state, sig)
	VALUES ($1,$2,$3,$4,$5,$6)
	ON CONFLICT (id) DO UPDATE SET updated_us = excluded.updated_us, state = excluded.state,
	sig = excluded.sig, cwd = CASE WHEN excluded.cwd <> '' THEN excluded.cwd ELSE sessions.cwd END`

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

// RecordHook implements store.Store. Writers on many machines append to one
// chain: a transaction-level advisory lock makes reading the tip and
// inserting the next row one step, so the chain cannot fork (two rows
// linking to the same predecessor) and ids follow insert order.
func (s *Store) RecordHook(ctx context.Context, ev *store.Event, sess *store.Session) error {
	if ev.Time.IsZero() {
		ev.Time = time.Now()
	}
	if ev.Harness == "" {
		ev.Harness = "claude"
	}
	if ev.Decision == "" {
		ev.Decision = "allow"
	}
	ev.Time = time.UnixMicro(ev.Time.UnixMicro()).UTC() // the precision stored
	var raw *string
	if len(ev.Raw) > 0 {
		r := string(ev.Raw)
		raw = &r
	}
	return s.inTx(ctx, func(tx pgx.Tx) error {
		if err := lock(ctx, tx, lockChain); err != nil {
			return fmt.Errorf("record event: lock the chain: %w", err)
		}
		lastID, prev, err := chainTip(ctx, tx)
		if err != nil {
			return fmt.Errorf("record event: read chain tip: %w", err)
		}
		ev.ID = lastID + 1
		ev.PrevHash, ev.Hash = prev, store.ChainHash(prev, ev)
		if _, err := tx.Exec(ctx, insertEvent, ev.ID, ev.Time.UnixMicro(), ev.SessionID, ev.Event, ev.Harness,
			ev.Tool, ev.ToolUseID, ev.AgentID, ev.Cwd, ev.Path, ev.Decision, ev.Rule, ev.Mode, ev.Reason,
			ev.Error, ev.LatencyUS, ev.DurationMS, raw, ev.PrevHash, ev.Hash, ev.SleptMS,
			ev.HashBefore, ev.HashAfter, ev.LinesAdded, ev.LinesRemoved, ev.TaskID, ev.Detail); err != nil {
			return fmt.Errorf("record event: %w", err)
		}
		return saveSession(ctx, tx, sess)
	})
}

// SaveSession implements store.Store.
func (s *Store) SaveSession(ctx context.Context, sess *store.Session) error {
	return saveSession(ctx, s.pool, sess)
}

func saveSession(ctx context.Context, q querier, sess *store.Session) error {
	if sess == nil || sess.ID == "" {
		return nil
	}
	state := string(sess.State)
	if state == "" {
		state = "{}"
	}
	now := time.Now().UnixMicro()
	if _, err := q.Exec(ctx, upsertSession, sess.ID, sess.Cwd, now, now, state, sess.Sig); err != nil {
		return fmt.Errorf("save session: %w", err)
	}
	return nil
}

// Session implements store.Store.
func (s *Store) Session(ctx context.Context, id string) (*store.Session, error) {
	var sess store.Session
	var started, updated int64
	var state string
	err := s.pool.QueryRow(ctx, "SELECT id, cwd, started_us, updated_us, state, sig FROM sessions WHERE id = $1", id).
		Scan(&sess.ID, &sess.Cwd, &started, &updated, &state, &sess.Sig)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load session %s: %w", id, err)
	}
	sess.Started, sess.Updated = micros(started), micros(updated)
	sess.State = []byte(state)
	return &sess, nil
}

// Events implements store.Store.
func (s *Store) Events(ctx context.Context, f store.Filter) ([]store.Event, error) {
	var p params
	var where []string
	if f.SessionID != "" {
		where = append(where, "session_id = "+p.add(f.SessionID))
	}
	if f.Event != "" {
		where = append(where, "event = "+p.add(f.Event))
	}
	if f.TaskID != "" {
		where = append(where, "task_id = "+p.add(f.TaskID))
	}
	if f.Harness != "" {
		where = append(where, "harness = "+p.add(f.Harness))
	}
	if !f.Since.IsZero() {
		where = append(where, "ts_us >= "+p.add(f.Since.UnixMicro()))
	}
	if f.AfterID > 0 {
		where = append(where, "id > "+p.add(f.AfterID))
	}
	q := "SELECT " + eventCols + " FROM events"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY id DESC"
	if f.Limit > 0 {
		q += " LIMIT " + p.add(f.Limit)
	}
	out, err := s.queryEvents(ctx, q, p...)
	if err != nil {
		return nil, fmt.Errorf("list events: %w", err)
	}
	// Oldest first for display; the query took the newest Limit.
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
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

// Prune implements store.Store. It deletes a prefix of the chain (by id)
// and records the newest deleted row as the anchor, under the chain's lock
// so no row is appended to a tip that is being deleted.
func (s *Store) Prune(ctx context.Context, before time.Time) (int64, int64, error) {
	var ne, ns int64
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		ne, ns = 0, 0
		if err := lock(ctx, tx, lockChain); err != nil {
			return err
		}
		var id int64
		var hash string
		err := tx.QueryRow(ctx, "SELECT id, hash FROM events WHERE ts_us < $1 ORDER BY id DESC LIMIT 1",
			before.UnixMicro()).Scan(&id, &hash)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
		case err != nil:
			return err
		default:
			tag, err := tx.Exec(ctx, "DELETE FROM events WHERE id <= $1", id)
			if err != nil {
				return err
			}
			ne = tag.RowsAffected()
			if err := setSetting(ctx, tx, store.SettingChainAnchor, fmt.Sprintf("%d %s", id, hash)); err != nil {
				return err
			}
		}
		tag, err := tx.Exec(ctx, "DELETE FROM sessions WHERE updated_us < $1", before.UnixMicro())
		if err != nil {
			return err
		}
		ns = tag.RowsAffected()
		return nil
	})
	return ne, ns, err
}

// DecisionCounts implements store.Store.
func (s *Store) DecisionCounts(ctx context.Context, since time.Time) (map[string]int, error) {
	rows, err := s.pool.Query(ctx, "SELECT decision, count(*) FROM events WHERE ts_us >= $1 GROUP BY decision", since.UnixMicro())
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

// chainPage is how many rows VerifyChain reads per statement.
const chainPage = 5000

// VerifyChain implements store.Store: it reads the events in id order,
// recomputes each row's hash and checks each row links to the one before
// it (the first to the retention anchor, if retention deleted older rows).
// It pages by id, so a pool's long chain is many short statements, each
// well inside statement_timeout, not one that must stream it all.
func (s *Store) VerifyChain(ctx context.Context) (int64, *store.ChainBreak, error) {
	return s.verifyChain(ctx, chainPage)
}

// verifyChain is VerifyChain reading page rows per statement.
func (s *Store) verifyChain(ctx context.Context, page int) (int64, *store.ChainBreak, error) {
	anchor, _, err := s.Setting(ctx, store.SettingChainAnchor)
	if err != nil {
		return 0, nil, err
	}
	walk := store.NewChainWalk(anchor)
	for after := int64(-1 << 62); ; {
		evs, err := s.queryEvents(ctx, "SELECT "+eventCols+" FROM events WHERE id > $1 ORDER BY id LIMIT $2", after, page)
		if err != nil {
			return walk.Checked(), nil, fmt.Errorf("read events: %w", err)
		}
		for i := range evs {
			if brk := walk.Next(&evs[i]); brk != nil {
				return walk.Checked(), brk, nil
			}
		}
		if len(evs) < page {
			return walk.Checked(), nil, nil
		}
		after = evs[len(evs)-1].ID
	}
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
