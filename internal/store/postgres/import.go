package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/warden-dev/warden/internal/store"
)

// ImportEvents appends events a machine's local store recorded (origin
// names that store; evs are its rows in its id order) to the shared audit
// chain in one transaction, under the chain's advisory lock like
// RecordHook: each row gets the next id here and a hash recomputed on this
// chain, and a row of event_origins. Rows whose (origin, id) are already
// there are skipped, so a batch sent twice inserts nothing twice. The
// statements go in one pgx batch: a batch of 500 rows costs a few round
// trips, not a thousand, when the server is across a network.
// internal/store/ship sends with it.
func (s *Store) ImportEvents(ctx context.Context, origin string, evs []store.Event) (int, error) {
	if origin == "" {
		return 0, fmt.Errorf("import events: empty origin")
	}
	if len(evs) == 0 {
		return 0, nil
	}
	ids := make([]int64, len(evs))
	for i, e := range evs {
		ids[i] = e.ID
	}
	var n int
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		n = 0
		if err := lock(ctx, tx, lockChain); err != nil {
			return fmt.Errorf("import events: lock the chain: %w", err)
		}
		// Under the lock, no other shipper of this origin inserts beside us.
		have := map[int64]bool{}
		rows, err := tx.Query(ctx, "SELECT origin_id FROM event_origins WHERE origin = $1 AND origin_id = ANY($2)", origin, ids)
		if err != nil {
			return fmt.Errorf("import events: %w", err)
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			have[id] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("import events: %w", err)
		}
		lastID, prev, err := chainTip(ctx, tx)
		if err != nil {
			return fmt.Errorf("import events: read chain tip: %w", err)
		}
		var b pgx.Batch
		for i := range evs {
			if !seen(have, evs[i].ID) {
				continue // already here, or twice in this batch
			}
			ev := evs[i] // a copy: the caller's rows keep their origin ids and hashes
			originID, originHash := ev.ID, ev.Hash
			chain(&ev, lastID+1, prev)
			var raw *string
			if len(ev.Raw) > 0 {
				r := string(ev.Raw)
				raw = &r
			}
			b.Queue(insertEvent, ev.ID, ev.Time.UnixMicro(), ev.SessionID, ev.Event, ev.Harness,
				ev.Tool, ev.ToolUseID, ev.AgentID, ev.Cwd, ev.Path, ev.Decision, ev.Rule, ev.Mode, ev.Reason,
				ev.Error, ev.LatencyUS, ev.DurationMS, raw, ev.PrevHash, ev.Hash, ev.SleptMS,
				ev.HashBefore, ev.HashAfter, ev.LinesAdded, ev.LinesRemoved, ev.TaskID, ev.Detail)
			b.Queue("INSERT INTO event_origins (origin, origin_id, event_id, origin_hash) VALUES ($1,$2,$3,$4)",
				origin, originID, ev.ID, originHash)
			lastID, prev = ev.ID, ev.Hash
			n++
		}
		if n == 0 {
			return nil
		}
		if err := tx.SendBatch(ctx, &b).Close(); err != nil {
			return fmt.Errorf("import events: %w", err)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

// seen marks id as taken in have and reports whether it was new.
func seen(have map[int64]bool, id int64) bool {
	if have[id] {
		return false
	}
	have[id] = true
	return true
}

// chain makes ev row id of this chain, linked to prev, with what
// RecordHook fills in (time precision, harness, decision).
func chain(ev *store.Event, id int64, prev string) {
	if ev.Harness == "" {
		ev.Harness = "claude"
	}
	if ev.Decision == "" {
		ev.Decision = "allow"
	}
	ev.ID = id
	ev.Time = time.UnixMicro(ev.Time.UnixMicro()).UTC()
	ev.PrevHash, ev.Hash = prev, store.ChainHash(prev, ev)
}

// ImportSessions saves session states a machine's local store holds,
// keeping their times; a session this store has with a newer update is
// left alone, so states sent twice or out of order never roll one back.
func (s *Store) ImportSessions(ctx context.Context, sess []store.Session) error {
	if len(sess) == 0 {
		return nil
	}
	return s.inTx(ctx, func(tx pgx.Tx) error {
		var b pgx.Batch
		for _, ss := range sess {
			state := string(ss.State)
			if state == "" {
				state = "{}"
			}
			b.Queue(`INSERT INTO sessions (id, cwd, started_us, updated_us, state, sig) VALUES ($1,$2,$3,$4,$5,$6)
				ON CONFLICT (id) DO UPDATE SET cwd = excluded.cwd, updated_us = excluded.updated_us,
				state = excluded.state, sig = excluded.sig
				WHERE excluded.updated_us >= sessions.updated_us`,
				ss.ID, ss.Cwd, ss.Started.UnixMicro(), ss.Updated.UnixMicro(), state, ss.Sig)
		}
		if err := tx.SendBatch(ctx, &b).Close(); err != nil {
			return fmt.Errorf("import sessions: %w", err)
		}
		return nil
	})
}
