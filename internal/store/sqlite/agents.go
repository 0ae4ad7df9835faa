package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

const agentCols = `task_id, project, worktree, branch, base, base_commit, mode, window, criteria, state, reason,
	archive, last_event_id, last_event_us, started_us, updated_us, ended_us, cleaned_us, memory_cgroup,
	pending, tail, permission_mode`

func usOf(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMicro()
}

func timeOf(us int64) time.Time {
	if us == 0 {
		return time.Time{}
	}
	return timeFromMicros(us)
}

func agentArgs(a *store.Agent) []any {
	crit, _ := json.Marshal(a.Criteria)
	if a.Criteria == nil {
		crit = []byte("[]")
	}
	return []any{a.TaskID, a.Project, a.Worktree, a.Branch, a.Base, a.BaseCommit, a.Mode, a.Window, string(crit),
		a.State, a.Reason, a.Archive, a.LastEventID, usOf(a.LastEvent), usOf(a.Started), usOf(a.Updated),
		usOf(a.Ended), usOf(a.Cleaned), a.MemoryCgroup, a.Pending, a.Tail, a.PermissionMode}
}

// InsertAgent records a new agent and its first state, in one
// transaction. A task that already has an agent is an error.
func (s *Store) InsertAgent(ctx context.Context, a *store.Agent) error {
	if a.Started.IsZero() {
		a.Started = time.Now()
	}
	a.Updated = a.Started
	return retryLocked(ctx, func() error {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if _, err := tx.ExecContext(ctx, "INSERT INTO agents ("+agentCols+") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
			agentArgs(a)...); err != nil {
			return fmt.Errorf("record agent of task %s: %w", a.TaskID, err)
		}
		if err := insertAgentState(ctx, tx, a.TaskID, &store.AgentState{State: a.State, At: a.Started, Reason: a.Reason}); err != nil {
			return err
		}
		return tx.Commit()
	})
}

// UpdateAgent saves a and, when next is not nil, records the state it
// entered, in one transaction.
func (s *Store) UpdateAgent(ctx context.Context, a *store.Agent, next *store.AgentState) error {
	a.Updated = time.Now()
	return retryLocked(ctx, func() error {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		args := agentArgs(a)
		r, err := tx.ExecContext(ctx, `UPDATE agents SET project=?, worktree=?, branch=?, base=?, base_commit=?, mode=?, window=?,
			criteria=?, state=?, reason=?, archive=?, last_event_id=?, last_event_us=?, started_us=?, updated_us=?, ended_us=?,
			cleaned_us=?, memory_cgroup=?, pending=?, tail=?, permission_mode=? WHERE task_id=?`, append(args[1:], args[0])...)
		if err != nil {
			return fmt.Errorf("update agent of task %s: %w", a.TaskID, err)
		}
		if n, _ := r.RowsAffected(); n == 0 {
			return fmt.Errorf("update agent of task %s: no such agent", a.TaskID)
		}
		if next != nil {
			if err := insertAgentState(ctx, tx, a.TaskID, next); err != nil {
				return err
			}
		}
		return tx.Commit()
	})
}

func insertAgentState(ctx context.Context, tx *sql.Tx, task string, st *store.AgentState) error {
	if st.At.IsZero() {
		st.At = time.Now()
	}
	_, err := tx.ExecContext(ctx, "INSERT INTO agent_states (task_id, state, at_us, reason) VALUES (?,?,?,?)",
		task, st.State, st.At.UnixMicro(), st.Reason)
	if err != nil {
		return fmt.Errorf("record state of task %s: %w", task, err)
	}
	return nil
}

func scanAgent(sc interface{ Scan(...any) error }) (*store.Agent, error) {
	var a store.Agent
	var crit string
	var last, started, updated, ended, cleaned int64
	if err := sc.Scan(&a.TaskID, &a.Project, &a.Worktree, &a.Branch, &a.Base, &a.BaseCommit, &a.Mode, &a.Window, &crit,
		&a.State, &a.Reason, &a.Archive, &a.LastEventID, &last, &started, &updated, &ended, &cleaned, &a.MemoryCgroup, &a.Pending, &a.Tail, &a.PermissionMode); err != nil {
		return nil, err
	}
	_ = json.Unmarshal([]byte(crit), &a.Criteria)
	a.LastEvent, a.Started, a.Updated, a.Ended, a.Cleaned = timeOf(last), timeOf(started), timeOf(updated), timeOf(ended), timeOf(cleaned)
	return &a, nil
}

// Agent loads the agent of a task; nil and no error when there is none.
func (s *Store) Agent(ctx context.Context, task string) (*store.Agent, error) {
	a, err := scanAgent(cachedDB{s}.QueryRowContext(ctx, "SELECT "+agentCols+" FROM agents WHERE task_id = ?", task))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load agent of task %s: %w", task, err)
	}
	return a, nil
}

// Agents lists agents, oldest first: those not cleaned up yet, or all.
func (s *Store) Agents(ctx context.Context, all bool) ([]*store.Agent, error) {
	q := "SELECT " + agentCols + " FROM agents"
	if !all {
		q += " WHERE cleaned_us = 0"
	}
	rows, err := s.db.QueryContext(ctx, q+" ORDER BY started_us, task_id")
	if err != nil {
		return nil, fmt.Errorf("list agents: %w", err)
	}
	defer rows.Close()
	var out []*store.Agent
	for rows.Next() {
		a, err := scanAgent(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// AgentStates is the state history of a task's agent, oldest first.
func (s *Store) AgentStates(ctx context.Context, task string) ([]store.AgentState, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT state, at_us, reason FROM agent_states WHERE task_id = ? ORDER BY id", task)
	if err != nil {
		return nil, fmt.Errorf("state history of task %s: %w", task, err)
	}
	defer rows.Close()
	var out []store.AgentState
	for rows.Next() {
		var st store.AgentState
		var at int64
		if err := rows.Scan(&st.State, &at, &st.Reason); err != nil {
			return nil, err
		}
		st.At = timeFromMicros(at)
		out = append(out, st)
	}
	return out, rows.Err()
}
