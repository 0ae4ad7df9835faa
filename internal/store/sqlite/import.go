package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// ImportEvents appends events another store recorded (origin names that
// store; evs are its rows in its id order) to this store's own audit chain,
// in one transaction: each gets the next id here and a hash recomputed on
// this chain, and a row of event_origins. An event whose (origin, id) is
// already there is skipped, so sending a batch again inserts nothing twice.
// It returns how many rows it inserted. internal/store/ship sends with it.
func (s *Store) ImportEvents(ctx context.Context, origin string, evs []store.Event) (int, error) {
	if origin == "" {
		return 0, fmt.Errorf("import events: empty origin")
	}
	if len(evs) == 0 {
		return 0, nil
	}
	s.wmu.Lock() // see Store.wmu
	defer s.wmu.Unlock()
	var n int
	err := retryLocked(ctx, func() error {
		n = 0
		tx, err := s.db.BeginTx(ctx, nil) // immediate: the chain tip cannot move
		if err != nil {
			return err
		}
		defer tx.Rollback()
		lastID, prev, err := chainTip(ctx, tx)
		if err != nil {
			return fmt.Errorf("import events: read chain tip: %w", err)
		}
		for i := range evs {
			ev := evs[i] // a copy: the caller's rows keep their origin ids and hashes
			res, err := tx.ExecContext(ctx,
				"INSERT INTO event_origins(origin, origin_id, event_id, origin_hash) VALUES(?,?,?,?) ON CONFLICT DO NOTHING",
				origin, ev.ID, lastID+1, ev.Hash)
			if err != nil {
				return fmt.Errorf("import events: %w", err)
			}
			if k, _ := res.RowsAffected(); k == 0 {
				continue // already imported
			}
			if err := insertChained(ctx, tx, &ev, lastID+1, prev); err != nil {
				return fmt.Errorf("import events: %w", err)
			}
			lastID, prev = ev.ID, ev.Hash
			n++
		}
		return tx.Commit()
	})
	return n, err
}

// insertChained inserts ev as row id linked to prev, filling in what
// RecordHook would have (harness, decision) and its chain fields.
func insertChained(ctx context.Context, tx interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, ev *store.Event, id int64, prev string) error {
	if ev.Harness == "" {
		ev.Harness = "claude"
	}
	if ev.Decision == "" {
		ev.Decision = "allow"
	}
	ev.ID = id
	ev.Time = time.UnixMicro(ev.Time.UnixMicro()).UTC()
	ev.PrevHash, ev.Hash = prev, store.ChainHash(prev, ev)
	var raw any
	if len(ev.Raw) > 0 {
		raw = string(ev.Raw)
	}
	_, err := tx.ExecContext(ctx, insertEvent, ev.ID, ev.Time.UnixMicro(), ev.SessionID, ev.Event, ev.Harness,
		ev.Tool, ev.ToolUseID, ev.AgentID, ev.Cwd, ev.Path, ev.Decision, ev.Rule, ev.Mode, ev.Reason,
		ev.Error, ev.LatencyUS, ev.DurationMS, raw, ev.PrevHash, ev.Hash, ev.SleptMS,
		ev.HashBefore, ev.HashAfter, ev.LinesAdded, ev.LinesRemoved, ev.TaskID, ev.Detail, ev.Spans)
	return err
}

// ImportSessions saves session states another store holds, keeping their
// times; a session this store has with a newer update is left alone, so
// states sent out of order or twice never roll one back.
func (s *Store) ImportSessions(ctx context.Context, sess []store.Session) error {
	if len(sess) == 0 {
		return nil
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	return retryLocked(ctx, func() error {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		for _, ss := range sess {
			state := string(ss.State)
			if state == "" {
				state = "{}"
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, cwd, started_us, updated_us, state, sig)
				VALUES (?,?,?,?,?,?)
				ON CONFLICT(id) DO UPDATE SET cwd = excluded.cwd, updated_us = excluded.updated_us,
				state = excluded.state, sig = excluded.sig
				WHERE excluded.updated_us >= sessions.updated_us`,
				ss.ID, ss.Cwd, ss.Started.UnixMicro(), ss.Updated.UnixMicro(), state, ss.Sig); err != nil {
				return fmt.Errorf("import sessions: %w", err)
			}
		}
		return tx.Commit()
	})
}
