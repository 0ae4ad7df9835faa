package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// The local store is the spool of internal/store/ship: these read what it
// has not shipped yet, in the order it must go.

// EventsAfter returns up to limit events with id > after, oldest first.
func (s *Store) EventsAfter(ctx context.Context, after int64, limit int) ([]store.Event, error) {
	return s.EventsPage(ctx, after, "", time.Time{}, limit)
}

// Backlog counts the events with id > after and gives the time of the
// oldest of them (zero when there are none).
func (s *Store) Backlog(ctx context.Context, after int64) (int64, time.Time, error) {
	var n int64
	var oldest sql.NullInt64
	err := s.db.QueryRowContext(ctx, "SELECT count(*), min(ts_us) FROM events WHERE id > ?", after).Scan(&n, &oldest)
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("count unshipped events: %w", err)
	}
	if !oldest.Valid {
		return n, time.Time{}, nil
	}
	return n, timeFromMicros(oldest.Int64), nil
}

// SessionsAfter returns up to limit sessions updated after the cursor
// (updatedUS, id), in (updated, id) order, with their states: a keyset
// page, so sessions updated in the same microsecond are neither skipped
// nor repeated.
func (s *Store) SessionsAfter(ctx context.Context, updatedUS int64, id string, limit int) ([]store.Session, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, cwd, started_us, updated_us, state, sig FROM sessions
		WHERE updated_us > ? OR (updated_us = ? AND id > ?) ORDER BY updated_us, id LIMIT ?`,
		updatedUS, updatedUS, id, limit)
	if err != nil {
		return nil, fmt.Errorf("list updated sessions: %w", err)
	}
	defer rows.Close()
	var out []store.Session
	for rows.Next() {
		var ss store.Session
		var st, up int64
		var state string
		if err := rows.Scan(&ss.ID, &ss.Cwd, &st, &up, &state, &ss.Sig); err != nil {
			return nil, err
		}
		ss.Started, ss.Updated, ss.State = timeFromMicros(st), timeFromMicros(up), []byte(state)
		out = append(out, ss)
	}
	if err := rows.Err(); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	return out, nil
}

// HasUnshipped says whether any event or session state waits past the
// shipper's marks: the keeper stays past its idle time while one does and
// a shared store is configured, so an outage's backlog does not wait for
// the next hook. Two index probes, cheap enough for every keeper poll.
func (s *Store) HasUnshipped(ctx context.Context) (bool, error) {
	return hasUnshipped(ctx, cachedDB{s})
}

func hasUnshipped(ctx context.Context, q rowQuerier) (bool, error) {
	m, err := readShipMarks(ctx, q)
	if err != nil {
		return false, err
	}
	var n int
	err = q.QueryRowContext(ctx, `SELECT EXISTS(SELECT 1 FROM events WHERE id > ?)
		OR EXISTS(SELECT 1 FROM sessions WHERE `+sessionUnshipped+`)`,
		m.events, m.sessUS, m.sessUS, m.sessID).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("look for unshipped rows: %w", err)
	}
	return n != 0, nil
}

// UnshippedBefore counts the events and session states not shipped yet
// that are older than before: what retention keeps only because they are
// not shipped (PruneShipped), for `warden doctor`.
func (s *Store) UnshippedBefore(ctx context.Context, before time.Time) (events, sessions int64, err error) {
	m, err := readShipMarks(ctx, cachedDB{s})
	if err != nil {
		return 0, 0, err
	}
	err = s.db.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM events WHERE id > ? AND ts_us < ?),
		(SELECT count(*) FROM sessions WHERE updated_us < ? AND `+sessionUnshipped+`)`,
		m.events, before.UnixMicro(), before.UnixMicro(), m.sessUS, m.sessUS, m.sessID).Scan(&events, &sessions)
	if err != nil {
		return 0, 0, fmt.Errorf("count unshipped rows older than retention: %w", err)
	}
	return events, sessions, nil
}
