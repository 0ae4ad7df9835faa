package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/warden-dev/warden/internal/store"
)

// VerifyChain implements store.Store: it streams the events in id order,
// recomputes each row's hash and checks each row links to the one before it
// (the first to the retention anchor, if retention deleted older rows).
func (s *Store) VerifyChain(ctx context.Context) (int64, *store.ChainBreak, error) {
	anchor, _, err := s.Setting(ctx, store.SettingChainAnchor)
	if err != nil {
		return 0, nil, err
	}
	walk := store.NewChainWalk(anchor)
	rows, err := s.db.QueryContext(ctx, "SELECT "+eventCols+" FROM events ORDER BY id")
	if err != nil {
		return 0, nil, fmt.Errorf("read events: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		e, err := scanEvent(rows)
		if err != nil {
			return walk.Checked(), nil, err
		}
		if brk := walk.Next(&e); brk != nil {
			return walk.Checked(), brk, nil
		}
	}
	if err := rows.Err(); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return walk.Checked(), nil, err
	}
	return walk.Checked(), nil, nil
}
