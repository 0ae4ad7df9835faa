package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/warden-dev/warden/internal/task"
)

// Task retention: the twin of internal/store/sqlite/tasks_prune.go.

// finishedStatuses are the statuses a task never leaves.
var finishedStatuses = []string{string(task.Done), string(task.Failed), string(task.Cancelled)}

// FinishedTasks lists tasks finished before before, oldest first, at
// most limit (0: 1000).
func (s *Store) FinishedTasks(ctx context.Context, before time.Time, limit int) ([]task.Task, error) {
	if limit <= 0 {
		limit = 1000
	}
	rows, err := s.pool.Query(ctx, "SELECT "+taskCols+` FROM tasks WHERE status = ANY($1)
		AND finished_us IS NOT NULL AND finished_us < $2 ORDER BY finished_us, id LIMIT $3`,
		finishedStatuses, before.UnixMicro(), limit)
	if err != nil {
		return nil, fmt.Errorf("list finished tasks: %w", err)
	}
	return scanTasks(rows)
}

// DeleteTasks deletes those of ids that are finished, with their
// transitions, decisions and agent records, in one transaction; it
// returns how many tasks it deleted.
func (s *Store) DeleteTasks(ctx context.Context, ids []string) (int64, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	var n int64
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		// Locked, so a task cannot be requeued between the check and
		// the delete.
		rows, err := tx.Query(ctx, "SELECT id FROM tasks WHERE id = ANY($1) AND status = ANY($2) FOR UPDATE", ids, finishedStatuses)
		if err != nil {
			return err
		}
		done, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil || len(done) == 0 {
			return err
		}
		for _, table := range []string{"task_transitions", "sched_decisions", "agent_states", "agents"} {
			if _, err := tx.Exec(ctx, "DELETE FROM "+table+" WHERE task_id = ANY($1)", done); err != nil {
				return fmt.Errorf("%s: %w", table, err)
			}
		}
		tag, err := tx.Exec(ctx, "DELETE FROM tasks WHERE id = ANY($1)", done)
		n = tag.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("delete tasks: %w", err)
	}
	return n, nil
}
