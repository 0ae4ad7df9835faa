package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/warden-dev/warden/internal/store"
)

// VerifyChain implements store.Store: it streams the events in id order,
// recomputes each row's hash and checks each row links to the one before it
// (the first to the retention anchor, if retention deleted older rows).
func (s *Store) VerifyChain(ctx context.Context) (int64, *store.ChainBreak, error) {
	var prevID int64
	var prevHash string
	anchor, ok, err := s.Setting(ctx, store.SettingChainAnchor)
	if err != nil {
		return 0, nil, err
	}
	if ok {
		idStr, h, _ := strings.Cut(anchor, " ")
		prevID, _ = strconv.ParseInt(idStr, 10, 64)
		prevHash = h
	}
	rows, err := s.db.QueryContext(ctx, "SELECT "+eventCols+" FROM events ORDER BY id")
	if err != nil {
		return 0, nil, fmt.Errorf("read events: %w", err)
	}
	defer rows.Close()
	var n int64
	for rows.Next() {
		e, err := scanEvent(rows)
		if err != nil {
			return n, nil, err
		}
		n++
		switch {
		case e.ID != prevID+1:
			return n, &store.ChainBreak{ID: e.ID, Reason: fmt.Sprintf("row %d follows row %d: rows %d..%d are missing", e.ID, prevID, prevID+1, e.ID-1)}, nil
		case e.PrevHash != prevHash:
			return n, &store.ChainBreak{ID: e.ID, Reason: fmt.Sprintf("row %d does not link to the row before it (deleted, replaced or reordered)", e.ID)}, nil
		case store.ChainHash(e.PrevHash, &e) != e.Hash:
			return n, &store.ChainBreak{ID: e.ID, Reason: fmt.Sprintf("row %d was changed after it was recorded", e.ID)}, nil
		}
		prevID, prevHash = e.ID, e.Hash
	}
	if err := rows.Err(); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return n, nil, err
	}
	return n, nil, nil
}
