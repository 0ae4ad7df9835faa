package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/warden-dev/warden/internal/task"
)

// The task queue (migration 0010): *Store implements task.Store for
// several workers at once. Claims skip rows another worker has locked
// (FOR UPDATE SKIP LOCKED), so workers never wait on each other nor take
// the same task; a task that becomes queued is announced on TaskChannel.
var _ task.Store = (*Store)(nil)

const taskCols = `id, project, prompt, priority, status, attempts, result, error, source,
	COALESCE(idem_key, ''), system, agent, agent_state, agent_ref, agent_note, owner,
	created_us, updated_us, claimed_us, started_us, finished_us, criteria, allow_ops, deny_ops`

func scanTask(sc pgx.Row) (*task.Task, error) {
	var t task.Task
	var created, updated int64
	var crit, allow, deny string
	var claimed, started, finished *int64
	if err := sc.Scan(&t.ID, &t.Project, &t.Prompt, &t.Priority, &t.Status, &t.Attempts, &t.Result, &t.Error,
		&t.Source, &t.IdempotencyKey, &t.System, &t.Agent, &t.AgentState, &t.AgentRef, &t.AgentNote, &t.Owner,
		&created, &updated, &claimed, &started, &finished, &crit, &allow, &deny); err != nil {
		return nil, err
	}
	if err := t.SetRulesColumns(crit, allow, deny); err != nil {
		return nil, err
	}
	t.CreatedAt, t.UpdatedAt = micros(created), micros(updated)
	t.ClaimedAt, t.StartedAt, t.FinishedAt = microsPtr(claimed), microsPtr(started), microsPtr(finished)
	return &t, nil
}

func microsPtr(us *int64) *time.Time {
	if us == nil {
		return nil
	}
	t := micros(*us)
	return &t
}

func taskByID(ctx context.Context, q querier, id string, forUpdate bool) (*task.Task, error) {
	sql := "SELECT " + taskCols + " FROM tasks WHERE id = $1"
	if forUpdate {
		sql += " FOR UPDATE"
	}
	t, err := scanTask(q.QueryRow(ctx, sql, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%w: %s", task.ErrNotFound, id)
	}
	return t, err
}

func addTransition(ctx context.Context, tx pgx.Tx, id string, now time.Time, from, to task.Status, reason string) error {
	_, err := tx.Exec(ctx, `INSERT INTO task_transitions (task_id, time_us, from_status, to_status, reason)
		VALUES ($1,$2,$3,$4,$5)`, id, now.UnixMicro(), string(from), string(to), reason)
	return err
}

// notifyQueued announces a queued task to the workers; PostgreSQL delivers
// it when the transaction commits (and not at all if it rolls back).
func notifyQueued(ctx context.Context, tx pgx.Tx, id string) error {
	_, err := tx.Exec(ctx, "SELECT pg_notify($1, $2)", TaskChannel, id)
	return err
}

// CreateTask implements task.Store. Creates take an advisory lock, so the
// queue limit and the idempotency key hold across workers: two requests
// with one key make one task.
func (s *Store) CreateTask(ctx context.Context, t *task.Task, queueLimit int) (*task.Task, bool, error) {
	var got *task.Task
	created := false
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		got, created = nil, false
		if err := lock(ctx, tx, lockTasks); err != nil {
			return err
		}
		if t.IdempotencyKey != "" {
			old, err := scanTask(tx.QueryRow(ctx, "SELECT "+taskCols+" FROM tasks WHERE idem_key = $1", t.IdempotencyKey))
			if err == nil {
				if old.Project != t.Project || old.Prompt != t.Prompt || !old.SameRules(t) {
					return fmt.Errorf("%w: key %q made task %s", task.ErrKeyReused, t.IdempotencyKey, old.ID)
				}
				got = old
				return nil
			}
			if !errors.Is(err, pgx.ErrNoRows) {
				return err
			}
		}
		if queueLimit > 0 {
			var n int
			if err := tx.QueryRow(ctx, "SELECT count(*) FROM tasks WHERE status = $1", string(task.Queued)).Scan(&n); err != nil {
				return err
			}
			if n >= queueLimit {
				return fmt.Errorf("%w: %d tasks queued, the limit (serve.queue_size) is %d", task.ErrQueueFull, n, queueLimit)
			}
		}
		var key *string
		if t.IdempotencyKey != "" {
			key = &t.IdempotencyKey
		}
		now := t.CreatedAt.UnixMicro()
		crit, allow, deny := t.RulesColumns()
		if _, err := tx.Exec(ctx, `INSERT INTO tasks (id, project, prompt, priority, status, attempts, source,
			idem_key, system, agent, created_us, updated_us, criteria, allow_ops, deny_ops)
			VALUES ($1,$2,$3,$4,$5,0,$6,$7,$8,$9,$10,$11,$12,$13,$14)`,
			t.ID, t.Project, t.Prompt, t.Priority, string(t.Status), t.Source, key, t.System, t.Agent, now, now,
			crit, allow, deny); err != nil {
			return fmt.Errorf("insert task: %w", err)
		}
		if err := addTransition(ctx, tx, t.ID, t.CreatedAt, "", t.Status, "created by "+orUnknown(t.Source)); err != nil {
			return err
		}
		if t.Status == task.Queued {
			if err := notifyQueued(ctx, tx, t.ID); err != nil {
				return err
			}
		}
		created = true
		var err error
		got, err = taskByID(ctx, tx, t.ID, false)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	return got, created, nil
}

func orUnknown(s string) string {
	if s == "" {
		return "an unnamed client"
	}
	return s
}

// Task implements task.Store.
func (s *Store) Task(ctx context.Context, id string) (*task.Task, error) {
	return taskByID(ctx, s.pool, id, false)
}

// Tasks implements task.Store.
func (s *Store) Tasks(ctx context.Context, f task.Filter) ([]task.Task, error) {
	var p params
	q := "SELECT " + taskCols + " FROM tasks WHERE true"
	if len(f.Statuses) > 0 {
		st := make([]string, len(f.Statuses))
		for i, v := range f.Statuses {
			st[i] = string(v)
		}
		q += " AND status = ANY(" + p.add(st) + ")"
	}
	if f.Project != "" {
		q += " AND project = " + p.add(f.Project)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 1000
	}
	q += " ORDER BY created_us DESC, id DESC LIMIT " + p.add(limit)
	rows, err := s.pool.Query(ctx, q, p...)
	if err != nil {
		return nil, fmt.Errorf("list tasks: %w", err)
	}
	return scanTasks(rows)
}

// CountTasks implements task.Store.
func (s *Store) CountTasks(ctx context.Context) (map[task.Status]int, error) {
	rows, err := s.pool.Query(ctx, "SELECT status, count(*) FROM tasks GROUP BY status")
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

// ClaimNext implements task.Store: in one transaction, the first queued
// task nobody else holds (FOR UPDATE SKIP LOCKED) becomes claimed, so any
// number of workers claim side by side and never the same task.
func (s *Store) ClaimNext(ctx context.Context, owner, system, reason string, now time.Time) (*task.Task, error) {
	var got *task.Task
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		got = nil
		var id string
		err := tx.QueryRow(ctx, `WITH next AS (
				SELECT id FROM tasks WHERE status = $1 AND (system = '' OR system = $2)
				ORDER BY priority DESC, created_us, id LIMIT 1 FOR UPDATE SKIP LOCKED)
			UPDATE tasks t SET status = $3, owner = $4, attempts = t.attempts + 1, claimed_us = $5, updated_us = $5
			FROM next WHERE t.id = next.id RETURNING t.id`,
			string(task.Queued), system, string(task.Claimed), owner, now.UnixMicro()).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := addTransition(ctx, tx, id, now, task.Queued, task.Claimed, reason); err != nil {
			return err
		}
		got, err = taskByID(ctx, tx, id, false)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("claim next task: %w", err)
	}
	return got, nil
}

// UpdateTask implements task.Store. The row is locked (FOR UPDATE) while
// the change is checked against its current status, so two workers cannot
// both move a task out of the same status.
func (s *Store) UpdateTask(ctx context.Context, id string, c task.Change) (*task.Task, error) {
	if c.Time.IsZero() {
		c.Time = time.Now()
	}
	var got *task.Task
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		cur, err := taskByID(ctx, tx, id, true)
		if err != nil {
			return err
		}
		if len(c.From) > 0 && !slices.Contains(c.From, cur.Status) {
			return fmt.Errorf("%w: task %s is %s", task.ErrConflict, id, cur.Status)
		}
		if c.Owner != "" && cur.Owner != c.Owner {
			return fmt.Errorf("%w: task %s is claimed by %q, not %q", task.ErrConflict, id, cur.Owner, c.Owner)
		}
		now := c.Time.UnixMicro()
		var p params
		sets := []string{"updated_us = " + p.add(now)}
		set := func(col string, v any) { sets = append(sets, col+" = "+p.add(v)) }
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
		moved := c.To != "" && c.To != cur.Status
		if moved {
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
					sets = append(sets, "attempts = GREATEST(attempts - 1, 0)")
				}
			}
		}
		if _, err := tx.Exec(ctx, "UPDATE tasks SET "+strings.Join(sets, ", ")+" WHERE id = "+p.add(id), p...); err != nil {
			return err
		}
		if moved {
			if err := addTransition(ctx, tx, id, c.Time, cur.Status, c.To, c.Reason); err != nil {
				return err
			}
			if c.To == task.Queued {
				if err := notifyQueued(ctx, tx, id); err != nil {
					return err
				}
			}
		}
		got, err = taskByID(ctx, tx, id, false)
		return err
	})
	if err != nil {
		return nil, err
	}
	return got, nil
}

// History implements task.Store.
func (s *Store) History(ctx context.Context, id string) ([]task.Transition, error) {
	rows, err := s.pool.Query(ctx, `SELECT time_us, from_status, to_status, reason FROM task_transitions
		WHERE task_id = $1 ORDER BY id`, id)
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
		tr.Time = micros(ts)
		out = append(out, tr)
	}
	return out, rows.Err()
}

// RecordDecision implements task.Store.
func (s *Store) RecordDecision(ctx context.Context, d task.Decision) error {
	if d.Time.IsZero() {
		d.Time = time.Now()
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO sched_decisions (time_us, task_id, action, reason) VALUES ($1,$2,$3,$4)`,
		d.Time.UnixMicro(), d.TaskID, d.Action, d.Reason)
	if err != nil {
		return fmt.Errorf("record scheduling decision: %w", err)
	}
	return nil
}

// Decisions implements task.Store.
func (s *Store) Decisions(ctx context.Context, taskID string, after int64, limit int) ([]task.Decision, error) {
	p := params{taskID, after}
	q := `SELECT id, time_us, task_id, action, reason FROM sched_decisions WHERE task_id = $1 AND id > $2 ORDER BY id`
	if limit > 0 {
		q += " LIMIT " + p.add(limit)
	}
	rows, err := s.pool.Query(ctx, q, p...)
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
		d.Time = micros(ts)
		out = append(out, d)
	}
	return out, rows.Err()
}

// scanTasks reads every task of rows and closes them.
func scanTasks(rows pgx.Rows) ([]task.Task, error) {
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
