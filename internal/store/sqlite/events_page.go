package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// EventsPage is a forward page of events for the daemon's API: at most
// limit events with id > after, oldest first, optionally of one session and
// not older than since. Paging on the id cursor sees every event exactly
// once, new ones included.
func (s *Store) EventsPage(ctx context.Context, after int64, session string, since time.Time, limit int) ([]store.Event, error) {
	q := "SELECT " + eventCols + " FROM events WHERE id > ?"
	args := []any{after}
	if session != "" {
		q += " AND session_id = ?"
		args = append(args, session)
	}
	if !since.IsZero() {
		q += " AND ts_us >= ?"
		args = append(args, since.UnixMicro())
	}
	q += " ORDER BY id LIMIT ?"
	args = append(args, limit)
	rows, err := cachedDB{s}.QueryContext(ctx, q, args...) // four shapes at most
	if err != nil {
		return nil, fmt.Errorf("page events: %w", err)
	}
	defer rows.Close()
	out := []store.Event{}
	for rows.Next() {
		e, err := scanEvent(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// SessionsPage lists sessions, most recently updated first (state left
// out: it is the hooks' business).
func (s *Store) SessionsPage(ctx context.Context, limit int) ([]store.Session, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id, cwd, started_us, updated_us FROM sessions ORDER BY updated_us DESC LIMIT ?", limit)
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
		ss.Started, ss.Updated = time.UnixMicro(st).UTC(), time.UnixMicro(up).UTC()
		out = append(out, ss)
	}
	return out, rows.Err()
}
