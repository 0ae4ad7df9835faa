package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// DeliveryTask reports whether webhook delivery id from source was
// recorded, and the task it made ("" when none or not yet noted).
func (s *Store) DeliveryTask(ctx context.Context, source, id string) (taskID string, seen bool, err error) {
	err = s.pool.QueryRow(ctx, "SELECT task_id FROM webhook_deliveries WHERE source = $1 AND delivery_id = $2", source, id).Scan(&taskID)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("look up delivery: %w", err)
	}
	return taskID, true, nil
}

// PruneDeliveries forgets deliveries recorded before before (the
// retention of replay protection); it reports how many.
func (s *Store) PruneDeliveries(ctx context.Context, before time.Time) (int64, error) {
	tag, err := s.pool.Exec(ctx, "DELETE FROM webhook_deliveries WHERE time_us < $1", before.UnixMicro())
	if err != nil {
		return 0, fmt.Errorf("prune deliveries: %w", err)
	}
	return tag.RowsAffected(), nil
}
