package sqlite

import (
	"context"
	"fmt"

	"github.com/warden-dev/warden/internal/store"
)

// The pool's registry of workers (migration 0045), as in the PostgreSQL
// store: a daemon alone on SQLite has one row, its own.

// BeatSystem writes s's row (insert or replace).
func (s *Store) BeatSystem(ctx context.Context, sys store.System) error {
	_, err := s.execRetry(ctx, `INSERT INTO systems (owner, name, host, pid, version, agents, max_agents, load1, started, heartbeat)
		VALUES (?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT (owner) DO UPDATE SET name = excluded.name, host = excluded.host, pid = excluded.pid,
			version = excluded.version, agents = excluded.agents, max_agents = excluded.max_agents,
			load1 = excluded.load1, started = excluded.started, heartbeat = excluded.heartbeat`,
		sys.Owner, sys.Name, sys.Host, sys.PID, sys.Version, sys.Agents, sys.MaxAgents, sys.Load1,
		sys.Started.UnixMicro(), sys.Heartbeat.UnixMicro())
	if err != nil {
		return fmt.Errorf("heartbeat of %s: %w", sys.Owner, err)
	}
	return nil
}

// Systems lists every worker's row, by owner.
func (s *Store) Systems(ctx context.Context) ([]store.System, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT owner, name, host, pid, version, agents, max_agents, load1, started, heartbeat
		FROM systems ORDER BY owner`)
	if err != nil {
		return nil, fmt.Errorf("list systems: %w", err)
	}
	defer rows.Close()
	var out []store.System
	for rows.Next() {
		var sys store.System
		var started, beat int64
		if err := rows.Scan(&sys.Owner, &sys.Name, &sys.Host, &sys.PID, &sys.Version, &sys.Agents, &sys.MaxAgents,
			&sys.Load1, &started, &beat); err != nil {
			return nil, fmt.Errorf("list systems: %w", err)
		}
		sys.Started, sys.Heartbeat = timeFromMicros(started), timeFromMicros(beat)
		out = append(out, sys)
	}
	return out, rows.Err()
}

// LeaveSystem deletes the worker's row (a clean stop).
func (s *Store) LeaveSystem(ctx context.Context, owner string) error {
	_, err := s.execRetry(ctx, "DELETE FROM systems WHERE owner = ?", owner)
	return err
}
