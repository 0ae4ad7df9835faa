package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/task"
)

// Task retention (the daemon's prune, internal/daemon/prune.go): finished
// tasks are listed by when they finished, then deleted with their
// transitions, scheduling decisions and agent records. A task that is not
// finished is never deleted, even when named.

// finishedStatuses are the statuses a task never leaves.
var finishedStatuses = []any{string(task.Done), string(task.Failed), string(task.Cancelled)}

// FinishedTasks lists tasks finished before before, oldest first, at
// most limit (0: 1000).
func (s *Store) FinishedTasks(ctx context.Context, before time.Time, limit int) ([]task.Task, error) {
	if limit <= 0 {
		limit = 1000
	}
	rows, err := s.db.QueryContext(ctx, "SELECT "+taskCols+` FROM tasks WHERE status IN (?, ?, ?)
		AND finished_us IS NOT NULL AND finished_us < ? ORDER BY finished_us, id LIMIT ?`,
		append(finishedStatuses, before.UnixMicro(), limit)...)
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
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		n = 0
		// Only those still finished: the others stay, their records too.
		in := "(" + strings.TrimSuffix(strings.Repeat("?,", len(ids)), ",") + ")"
		args := make([]any, 0, len(ids)+3)
		for _, id := range ids {
			args = append(args, id)
		}
		rows, err := tx.QueryContext(ctx, "SELECT id FROM tasks WHERE id IN "+in+" AND status IN (?, ?, ?)", append(args, finishedStatuses...)...)
		if err != nil {
			return err
		}
		var done []any
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			done = append(done, id)
		}
		rows.Close()
		if len(done) == 0 {
			return nil
		}
		in = "(" + strings.TrimSuffix(strings.Repeat("?,", len(done)), ",") + ")"
		for _, table := range []string{"task_transitions", "sched_decisions", "agent_states", "agents"} {
			if _, err := tx.ExecContext(ctx, "DELETE FROM "+table+" WHERE task_id IN "+in, done...); err != nil {
				return fmt.Errorf("%s: %w", table, err)
			}
		}
		r, err := tx.ExecContext(ctx, "DELETE FROM tasks WHERE id IN "+in, done...)
		if err != nil {
			return err
		}
		n, err = r.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("delete tasks: %w", err)
	}
	return n, nil
}
