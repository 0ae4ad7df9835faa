package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// DropUnshipped is retention's upper bound for a store that ships to a
// shared one (internal/store/ship): it deletes the rows older than before
// even when the shipper never copied them, and records in unshipped_drops
// how many unshipped rows went, which ids and times, and reason. When no
// unshipped row is older than before it deletes nothing (ordinary
// retention, PruneShipped, is left to the hooks) and returns a zero
// Dropped. Events go as a prefix of the chain, as Prune does, so what
// remains still verifies; the shipper's mark moves past them.
func (s *Store) DropUnshipped(ctx context.Context, before time.Time, reason string) (store.Dropped, error) {
	var d store.Dropped
	err := retryLocked(ctx, func() error {
		d = store.Dropped{}
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		m, err := readShipMarks(ctx, tx)
		if err != nil {
			return err
		}
		var cut int64
		var hash string
		err = tx.QueryRowContext(ctx, "SELECT id, hash FROM events WHERE ts_us < ? ORDER BY id DESC LIMIT 1", before.UnixMicro()).Scan(&cut, &hash)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if cut > m.events {
			var first, last, firstUS, lastUS sql.NullInt64
			if err := tx.QueryRowContext(ctx, "SELECT count(*), min(id), max(id), min(ts_us), max(ts_us) FROM events WHERE id > ? AND id <= ?",
				m.events, cut).Scan(&d.Events, &first, &last, &firstUS, &lastUS); err != nil {
				return err
			}
			d.FirstID, d.LastID = first.Int64, last.Int64
			d.First, d.Last = time.UnixMicro(firstUS.Int64).UTC(), time.UnixMicro(lastUS.Int64).UTC()
		}
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM sessions WHERE updated_us < ? AND "+sessionUnshipped,
			before.UnixMicro(), m.sessUS, m.sessUS, m.sessID).Scan(&d.Sessions); err != nil {
			return err
		}
		if d.Events == 0 && d.Sessions == 0 {
			return nil
		}
		if d.Events > 0 {
			if _, err := tx.ExecContext(ctx, "DELETE FROM events WHERE id <= ?", cut); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, upsertSettingSQL, store.SettingChainAnchor, fmt.Sprintf("%d %s", cut, hash)); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, upsertSettingSQL, store.SettingShipEvents, strconv.FormatInt(cut, 10)); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM sessions WHERE updated_us < ?", before.UnixMicro()); err != nil {
			return err
		}
		d.At, d.Reason = time.Now().UTC(), reason
		if _, err := tx.ExecContext(ctx, `INSERT INTO unshipped_drops(ts_us, events, first_id, last_id, first_ts_us, last_ts_us, sessions, reason)
			VALUES(?, ?, ?, ?, ?, ?, ?, ?)`, d.At.UnixMicro(), d.Events, d.FirstID, d.LastID, firstUS(d), lastUS(d), d.Sessions, reason); err != nil {
			return err
		}
		return tx.Commit()
	})
	if err != nil {
		return store.Dropped{}, fmt.Errorf("prune unshipped rows older than %s: %w", before.UTC().Format(time.DateOnly), err)
	}
	return d, nil
}

func firstUS(d store.Dropped) int64 {
	if d.Events == 0 {
		return 0
	}
	return d.First.UnixMicro()
}

func lastUS(d store.Dropped) int64 {
	if d.Events == 0 {
		return 0
	}
	return d.Last.UnixMicro()
}

// Drops lists the recorded prunings of unshipped rows, newest first, at
// most limit.
func (s *Store) Drops(ctx context.Context, limit int) ([]store.Dropped, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT ts_us, events, first_id, last_id, first_ts_us, last_ts_us, sessions, reason
		FROM unshipped_drops ORDER BY id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("read unshipped_drops: %w", err)
	}
	defer rows.Close()
	var out []store.Dropped
	for rows.Next() {
		var d store.Dropped
		var at, f, l int64
		if err := rows.Scan(&at, &d.Events, &d.FirstID, &d.LastID, &f, &l, &d.Sessions, &d.Reason); err != nil {
			return nil, err
		}
		d.At = time.UnixMicro(at).UTC()
		if d.Events > 0 {
			d.First, d.Last = time.UnixMicro(f).UTC(), time.UnixMicro(l).UTC()
		}
		out = append(out, d)
	}
	return out, rows.Err()
}
