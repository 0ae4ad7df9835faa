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

// Prune implements store.Store. Before deleting, it records the newest
// deleted row as the chain's anchor, so verification of what remains still
// knows where the chain must continue from.
func (s *Store) Prune(ctx context.Context, before time.Time) (int64, int64, error) {
	return s.prune(ctx, before, false)
}

// PruneShipped is Prune for a local store that ships to a shared one
// (internal/store/ship): it deletes only rows the shipper has copied
// already, so a long outage of the shared store, or a shipper that never
// ran, loses nothing to retention. Rows older than before but not shipped
// stay until they are; the marks are read in the deleting transaction, and
// they only move forward, so a shipper running beside it costs at most a
// row kept one day longer.
func (s *Store) PruneShipped(ctx context.Context, before time.Time) (int64, int64, error) {
	return s.prune(ctx, before, true)
}

func (s *Store) prune(ctx context.Context, before time.Time, keepUnshipped bool) (int64, int64, error) {
	var ne, ns int64
	err := retryLocked(ctx, func() error {
		ne, ns = 0, 0
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		// Without shipping, nothing is held back: the marks are past any row.
		m := shipMarks{events: 1<<63 - 1, sessUS: 1<<63 - 1}
		if keepUnshipped {
			if m, err = readShipMarks(ctx, tx); err != nil {
				return err
			}
		}
		var id int64
		var hash string
		err = tx.QueryRowContext(ctx, "SELECT id, hash FROM events WHERE ts_us < ? AND id <= ? ORDER BY id DESC LIMIT 1",
			before.UnixMicro(), m.events).Scan(&id, &hash)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return err
		default:
			// Delete a prefix of the chain (by id), so what remains is
			// still one unbroken chain from the anchor.
			r, err := tx.ExecContext(ctx, "DELETE FROM events WHERE id <= ?", id)
			if err != nil {
				return err
			}
			ne, _ = r.RowsAffected()
			if _, err := tx.ExecContext(ctx,
				upsertSettingSQL,
				store.SettingChainAnchor, fmt.Sprintf("%d %s", id, hash)); err != nil {
				return err
			}
		}
		r, err := tx.ExecContext(ctx, "DELETE FROM sessions WHERE updated_us < ? AND "+sessionShipped,
			before.UnixMicro(), m.sessUS, m.sessUS, m.sessID)
		if err != nil {
			return err
		}
		ns, _ = r.RowsAffected()
		return tx.Commit()
	})
	return ne, ns, err
}

// sessionShipped is true of a session row at or before the shipper's
// session mark (its arguments: mark µs, mark µs, mark id); the shipper
// walks sessions in (updated_us, id) order.
const sessionShipped = "(updated_us < ? OR (updated_us = ? AND id <= ?))"

// sessionUnshipped is its opposite, written so the updated_us index serves.
const sessionUnshipped = "(updated_us > ? OR (updated_us = ? AND id > ?))"

// shipMarks are the shipper's marks: every event with id <= events and
// every session state at or before (sessUS, sessID) is shipped.
type shipMarks struct {
	events int64
	sessUS int64
	sessID string
}

// rowQuerier is a transaction, a connection or the pool.
type rowQuerier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// readShipMarks reads the marks; absent ones are 0: nothing shipped yet.
func readShipMarks(ctx context.Context, q rowQuerier) (shipMarks, error) {
	var m shipMarks
	read := func(key string) (string, error) {
		var v string
		err := q.QueryRowContext(ctx, settingQuery, key).Scan(&v)
		if errors.Is(err, sql.ErrNoRows) {
			return "", nil
		}
		return v, err
	}
	v, err := read(store.SettingShipEvents)
	if err != nil {
		return m, fmt.Errorf("read setting %s: %w", store.SettingShipEvents, err)
	}
	if v != "" {
		if m.events, err = strconv.ParseInt(v, 10, 64); err != nil {
			return m, fmt.Errorf("setting %s = %q is not a number; delete it and the shipper sends everything again (the shared store skips what it has)", store.SettingShipEvents, v)
		}
	}
	v, err = read(store.SettingShipSessions)
	if err != nil {
		return m, fmt.Errorf("read setting %s: %w", store.SettingShipSessions, err)
	}
	usStr, id, _ := strings.Cut(v, " ")
	if usStr != "" {
		if m.sessUS, err = strconv.ParseInt(usStr, 10, 64); err != nil {
			return m, fmt.Errorf("setting %s = %q does not start with a number; delete it and the shipper sends the session states again", store.SettingShipSessions, v)
		}
	}
	m.sessID = id
	return m, nil
}
