package postgres

import (
	"context"
	"fmt"

	"github.com/warden-dev/warden/internal/store"
)

// The pool's registry of workers (migration 0045): each `warden serve`
// writes its row on every heartbeat.

// BeatSystem writes s's row (insert or replace).
func (s *Store) BeatSystem(ctx context.Context, sys store.System) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO systems (owner, name, host, pid, version, agents, max_agents, load1, started, heartbeat)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
		ON CONFLICT (owner) DO UPDATE SET name = excluded.name, host = excluded.host, pid = excluded.pid,
			version = excluded.version, agents = excluded.agents, max_agents = excluded.max_agents,
			load1 = excluded.load1, started = excluded.started, heartbeat = excluded.heartbeat`,
		sys.Owner, sys.Name, sys.Host, sys.PID, sys.Version, sys.Agents, sys.MaxAgents, sys.Load1, sys.Started.UTC(), sys.Heartbeat.UTC())
	if err != nil {
		return fmt.Errorf("heartbeat of %s: %w", sys.Owner, err)
	}
	return nil
}

// Systems lists every worker's row, by owner.
func (s *Store) Systems(ctx context.Context) ([]store.System, error) {
	rows, err := s.pool.Query(ctx, `SELECT owner, name, host, pid, version, agents, max_agents, load1, started, heartbeat
		FROM systems ORDER BY owner`)
	if err != nil {
		return nil, fmt.Errorf("list systems: %w", err)
	}
	defer rows.Close()
	var out []store.System
	for rows.Next() {
		var sys store.System
		if err := rows.Scan(&sys.Owner, &sys.Name, &sys.Host, &sys.PID, &sys.Version, &sys.Agents, &sys.MaxAgents,
			&sys.Load1, &sys.Started, &sys.Heartbeat); err != nil {
			return nil, fmt.Errorf("list systems: %w", err)
		}
		sys.Started, sys.Heartbeat = sys.Started.UTC(), sys.Heartbeat.UTC()
		out = append(out, sys)
	}
	return out, rows.Err()
}

// LeaveSystem deletes the worker's row (a clean stop).
func (s *Store) LeaveSystem(ctx context.Context, owner string) error {
	_, err := s.pool.Exec(ctx, "DELETE FROM systems WHERE owner = $1", owner)
	return err
}
