package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/task"
)

// The task queue (migration 0010): *Store implements task.Store.
var _ task.Store = (*Store)(nil)

const taskCols = `id, project, prompt, priority, status, attempts, result, error, source,
	COALESCE(idem_key, ''), system, agent, agent_state, agent_ref, agent_note, owner,
	created_us, updated_us, claimed_us, started_us, finished_us, criteria, allow_ops, deny_ops`

func scanTask(sc interface{ Scan(...any) error }) (*task.Task, error) {
	var t task.Task
	var created, updated int64
	var crit, allow, deny string
	var claimed, started, finished sql.NullInt64
	if err := sc.Scan(&t.ID, &t.Project, &t.Prompt, &t.Priority, &t.Status, &t.Attempts, &t.Result, &t.Error,
		&t.Source, &t.IdempotencyKey, &t.System, &t.Agent, &t.AgentState, &t.AgentRef, &t.AgentNote, &t.Owner,
		&created, &updated, &claimed, &started, &finished, &crit, &allow, &deny); err != nil {
		return nil, err
	}
	if err := t.SetRulesColumns(crit, allow, deny); err != nil {
		return nil, err
	}
	t.CreatedAt, t.UpdatedAt = time.UnixMicro(created).UTC(), time.UnixMicro(updated).UTC()
	t.ClaimedAt, t.StartedAt, t.FinishedAt = microsPtr(claimed), microsPtr(started), microsPtr(finished)
	return &t, nil
}

// inTx runs f in one immediate transaction, retrying while the database is
// locked (f must be safe to run again).
func (s *Store) inTx(ctx context.Context, f func(tx *sql.Tx) error) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	return retryLocked(ctx, func() error {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if err := f(tx); err != nil {
			return err
		}
		return tx.Commit()
	})
}

func taskByID(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, id string) (*task.Task, error) {
	t, err := scanTask(q.QueryRowContext(ctx, "SELECT "+taskCols+" FROM tasks WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: %s", task.ErrNotFound, id)
	}
	return t, err
}

func addTransition(ctx context.Context, tx *sql.Tx, id string, now time.Time, from, to task.Status, reason string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO task_transitions (task_id, time_us, from_status, to_status, reason)
		VALUES (?,?,?,?,?)`, id, now.UnixMicro(), string(from), string(to), reason)
	return err
}

// CreateTask implements task.Store.
func (s *Store) CreateTask(ctx context.Context, t *task.Task, queueLimit int) (*task.Task, bool, error) {
	var got *task.Task
	created := false
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		got, created = nil, false
		if t.IdempotencyKey != "" {
			old, err := scanTask(tx.QueryRowContext(ctx, "SELECT "+taskCols+" FROM tasks WHERE idem_key = ?", t.IdempotencyKey))
			if err == nil {
				if old.Project != t.Project || old.Prompt != t.Prompt || !old.SameRules(t) {
					return fmt.Errorf("%w: key %q made task %s", task.ErrKeyReused, t.IdempotencyKey, old.ID)
				}
				got = old
				return nil
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return err
			}
		}
		if queueLimit > 0 {
			var n int
			if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM tasks WHERE status = ?", string(task.Queued)).Scan(&n); err != nil {
				return err
			}
			if n >= queueLimit {
				return fmt.Errorf("%w: %d tasks queued, the limit (serve.queue_size) is %d", task.ErrQueueFull, n, queueLimit)
			}
		}
		var key any
		if t.IdempotencyKey != "" {
			key = t.IdempotencyKey
		}
		now := t.CreatedAt.UnixMicro()
		crit, allow, deny := t.RulesColumns()
		if _, err := tx.ExecContext(ctx, `INSERT INTO tasks (id, project, prompt, priority, status, attempts, source,
			idem_key, system, agent, created_us, updated_us, criteria, allow_ops, deny_ops)
			VALUES (?,?,?,?,?,0,?,?,?,?,?,?,?,?,?)`,
			t.ID, t.Project, t.Prompt, t.Priority, string(t.Status), t.Source, key, t.System, t.Agent, now, now,
			crit, allow, deny); err != nil {
			return fmt.Errorf("insert task: %w", err)
		}
		if err := addTransition(ctx, tx, t.ID, t.CreatedAt, "", t.Status, "created by "+orUnknown(t.Source)); err != nil {
			return err
		}
		created = true
		var err error
		got, err = taskByID(ctx, tx, t.ID)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	return got, created, nil
}

// microsPtr turns a nullable ts_us column into a time.
func microsPtr(n sql.NullInt64) *time.Time {
	if !n.Valid {
		return nil
	}
	t := time.UnixMicro(n.Int64).UTC()
	return &t
}

func orUnknown(s string) string {
	if s == "" {
		return "an unnamed client"
	}
	return s
}

// Task implements task.Store.
func (s *Store) Task(ctx context.Context, id string) (*task.Task, error) {
	return taskByID(ctx, cachedDB{s}, id)
}

// Tasks implements task.Store.
func (s *Store) Tasks(ctx context.Context, f task.Filter) ([]task.Task, error) {
	q := "SELECT " + taskCols + " FROM tasks WHERE 1=1"
	var args []any
	if len(f.Statuses) > 0 {
		q += " AND status IN (" + strings.TrimSuffix(strings.Repeat("?,", len(f.Statuses)), ",") + ")"
		for _, st := range f.Statuses {
			args = append(args, string(st))
		}
	}
	if f.Project != "" {
		q += " AND project = ?"
		args = append(args, f.Project)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 1000
	}
	q += " ORDER BY created_us DESC, id DESC LIMIT ?"
	args = append(args, limit)
	rows, err := cachedDB{s}.QueryContext(ctx, q, args...) // a handful of distinct filters
	if err != nil {
		return nil, fmt.Errorf("list tasks: %w", err)
	}
	return scanTasks(rows)
}

// CountTasks implements task.Store.
func (s *Store) CountTasks(ctx context.Context) (map[task.Status]int, error) {
	rows, err := cachedDB{s}.QueryContext(ctx, "SELECT status, count(*) FROM tasks GROUP BY status")
	if err != nil {
		return nil, fmt.Errorf("count tasks: %w", err)
	}
	defer rows.Close()
	out := map[task.Status]int{}
	for rows.Next() {
		var st string
		var n int
		if err := rows.Scan(&st, &n); err != nil {
			return nil, err
		}
		out[task.Status(st)] = n
	}
	return out, rows.Err()
}

// ClaimNext implements task.Store.
func (s *Store) ClaimNext(ctx context.Context, owner, system, reason string, now time.Time) (*task.Task, error) {
	var got *task.Task
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		got = nil
		var id string
		err := tx.QueryRowContext(ctx, `SELECT id FROM tasks WHERE status = ? AND (system = '' OR system = ?)
			ORDER BY priority DESC, created_us, id LIMIT 1`, string(task.Queued), system).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE tasks SET status = ?, owner = ?, attempts = attempts + 1,
			claimed_us = ?, updated_us = ? WHERE id = ?`, string(task.Claimed), owner, now.UnixMicro(), now.UnixMicro(), id); err != nil {
			return err
		}
		if err := addTransition(ctx, tx, id, now, task.Queued, task.Claimed, reason); err != nil {
			return err
		}
		got, err = taskByID(ctx, tx, id)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("claim next task: %w", err)
	}
	return got, nil
}

// UpdateTask implements task.Store.
func (s *Store) UpdateTask(ctx context.Context, id string, c task.Change) (*task.Task, error) {
	if c.Time.IsZero() {
		c.Time = time.Now()
	}
	var got *task.Task
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		cur, err := taskByID(ctx, tx, id)
		if err != nil {
			return err
		}
		if len(c.From) > 0 && !containsStatus(c.From, cur.Status) {
			return fmt.Errorf("%w: task %s is %s", task.ErrConflict, id, cur.Status)
		}
		if c.Owner != "" && cur.Owner != c.Owner {
			return fmt.Errorf("%w: task %s is claimed by %q, not %q", task.ErrConflict, id, cur.Owner, c.Owner)
		}
		now := c.Time.UnixMicro()
		sets := []string{"updated_us = ?"}
		args := []any{now}
		set := func(col string, v any) { sets = append(sets, col+" = ?"); args = append(args, v) }
		if c.Result != nil {
			set("result", *c.Result)
		}
		if c.Error != nil {
			set("error", *c.Error)
		}
		if c.AgentState != nil {
			set("agent_state", *c.AgentState)
		}
		if c.AgentRef != nil {
			set("agent_ref", *c.AgentRef)
		}
		if c.AgentNote != nil {
			set("agent_note", *c.AgentNote)
		}
		if c.NewOwner != "" {
			set("owner", c.NewOwner)
		}
		if c.To != "" && c.To != cur.Status {
			set("status", string(c.To))
			switch {
			case c.To == task.Running && cur.StartedAt == nil:
				set("started_us", now)
			case c.To.Final():
				set("finished_us", now)
			case c.To == task.Queued && c.Requeue:
				set("owner", "")
				sets = append(sets, "claimed_us = NULL", "started_us = NULL")
				if c.Refund {
					sets = append(sets, "attempts = MAX(attempts - 1, 0)")
				}
			}
		}
		args = append(args, id)
		if _, err := tx.ExecContext(ctx, "UPDATE tasks SET "+strings.Join(sets, ", ")+" WHERE id = ?", args...); err != nil {
			return err
		}
		if c.To != "" && c.To != cur.Status {
			if err := addTransition(ctx, tx, id, c.Time, cur.Status, c.To, c.Reason); err != nil {
				return err
			}
		}
		got, err = taskByID(ctx, tx, id)
		return err
	})
	if err != nil {
		return nil, err
	}
	return got, nil
}

func containsStatus(list []task.Status, s task.Status) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// History implements task.Store.
func (s *Store) History(ctx context.Context, id string) ([]task.Transition, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT time_us, from_status, to_status, reason FROM task_transitions
		WHERE task_id = ? ORDER BY id`, id)
	if err != nil {
		return nil, fmt.Errorf("task history: %w", err)
	}
	defer rows.Close()
	var out []task.Transition
	for rows.Next() {
		var tr task.Transition
		var ts int64
		if err := rows.Scan(&ts, &tr.From, &tr.To, &tr.Reason); err != nil {
			return nil, err
		}
		tr.Time = time.UnixMicro(ts).UTC()
		out = append(out, tr)
	}
	return out, rows.Err()
}

// RecordDecision implements task.Store.
func (s *Store) RecordDecision(ctx context.Context, d task.Decision) error {
	if d.Time.IsZero() {
		d.Time = time.Now()
	}
	_, err := s.execRetry(ctx, `INSERT INTO sched_decisions (time_us, task_id, action, reason) VALUES (?,?,?,?)`,
		d.Time.UnixMicro(), d.TaskID, d.Action, d.Reason)
	if err != nil {
		return fmt.Errorf("record scheduling decision: %w", err)
	}
	return nil
}

// Decisions implements task.Store.
func (s *Store) Decisions(ctx context.Context, taskID string, after int64, limit int) ([]task.Decision, error) {
	if limit <= 0 {
		limit = -1
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, time_us, task_id, action, reason FROM sched_decisions
		WHERE task_id = ? AND id > ? ORDER BY id LIMIT ?`, taskID, after, limit)
	if err != nil {
		return nil, fmt.Errorf("scheduling decisions: %w", err)
	}
	defer rows.Close()
	var out []task.Decision
	for rows.Next() {
		var d task.Decision
		var ts int64
		if err := rows.Scan(&d.ID, &ts, &d.TaskID, &d.Action, &d.Reason); err != nil {
			return nil, err
		}
		d.Time = time.UnixMicro(ts).UTC()
		out = append(out, d)
	}
	return out, rows.Err()
}

// scanTasks reads every task of rows and closes them.
func scanTasks(rows *sql.Rows) ([]task.Task, error) {
	defer rows.Close()
	var out []task.Task
	for rows.Next() {
		t, err := scanTask(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *t)
	}
	return out, rows.Err()
}
