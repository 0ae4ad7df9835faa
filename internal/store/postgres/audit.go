package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/warden-dev/warden/internal/store"
)

// The shared record's audit side (store.AuditReader): `warden audit verify
// --shared` walks its chain and `warden replay --shared` reads its events.

// Events implements store.AuditReader.
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

// chainPage is how many rows VerifyChain reads per statement.
const chainPage = 5000

// VerifyChain implements store.AuditReader: it reads the events in id order,
// recomputes each row's hash and checks each row links to the one before
// it (the first to the retention anchor, if retention deleted older rows).
// It pages by id, so a pool's long chain is many short statements, each
// well inside statement_timeout, not one that must stream it all.
func (s *Store) VerifyChain(ctx context.Context) (int64, *store.ChainBreak, error) {
	return s.verifyChain(ctx, chainPage)
}

// verifyChain is VerifyChain reading page rows per statement.
func (s *Store) verifyChain(ctx context.Context, page int) (int64, *store.ChainBreak, error) {
	anchor, err := s.anchor(ctx)
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

// anchor is "<id> <hash>" of the row the chain starts after, "" when it
// starts at row 1 (the shared store keeps every row).
func (s *Store) anchor(ctx context.Context) (string, error) {
	var v string
	err := s.pool.QueryRow(ctx, "SELECT value FROM settings WHERE key = $1", store.SettingChainAnchor).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read setting %s: %w", store.SettingChainAnchor, err)
	}
	return v, nil
}
