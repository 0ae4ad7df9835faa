package pool

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// PG is the registry in the shared PostgreSQL database: one row per
// worker in the table systems, written by its heartbeat.
type PG struct {
	pool  *pgxpool.Pool
	owned bool // OpenPG made the pool: Close closes it
	// Stale is how old a heartbeat may be before its row is stale.
	Stale time.Duration
}

// systemsDDL creates the table when the store's migrations have not
// (idempotent; it only ever adds the table).
const systemsDDL = `CREATE TABLE IF NOT EXISTS systems (
	owner      TEXT PRIMARY KEY,
	name       TEXT NOT NULL,
	host       TEXT NOT NULL,
	pid        INTEGER NOT NULL,
	version    TEXT NOT NULL DEFAULT '',
	agents     INTEGER NOT NULL DEFAULT 0,
	max_agents INTEGER NOT NULL DEFAULT 0,
	load1      DOUBLE PRECISION NOT NULL DEFAULT 0,
	started    TIMESTAMPTZ NOT NULL,
	heartbeat  TIMESTAMPTZ NOT NULL
)`

// OpenPG connects the registry to the database at url (a small pool of
// its own: two connections) and makes sure the table exists.
func OpenPG(ctx context.Context, url string, stale time.Duration) (*PG, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("systems registry: %w", err)
	}
	cfg.MaxConns = 2
	p, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("systems registry: %w", err)
	}
	if err := ensureTable(ctx, p); err != nil {
		p.Close()
		return nil, err
	}
	return &PG{pool: p, owned: true, Stale: stale}, nil
}

// NewPG is the registry on a pool the caller owns (the PostgreSQL
// store's); Close leaves that pool open.
func NewPG(ctx context.Context, p *pgxpool.Pool, stale time.Duration) (*PG, error) {
	if err := ensureTable(ctx, p); err != nil {
		return nil, err
	}
	return &PG{pool: p, Stale: stale}, nil
}

// lockSystems serialises the table's creation: two CREATE TABLE IF NOT
// EXISTS racing each other can fail on PostgreSQL's catalog, and workers
// start together.
const lockSystems int64 = 0x776172646e_10

func ensureTable(ctx context.Context, p *pgxpool.Pool) error {
	tx, err := p.Begin(ctx)
	if err != nil {
		return fmt.Errorf("systems registry: %w", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", lockSystems); err != nil {
		return fmt.Errorf("systems registry: %w", err)
	}
	if _, err := tx.Exec(ctx, systemsDDL); err != nil {
		return fmt.Errorf("systems registry: create table systems: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("systems registry: %w", err)
	}
	return nil
}

// Close releases the registry's connections.
func (r *PG) Close() {
	if r.owned {
		r.pool.Close()
	}
}

// Beat implements Registry.
func (r *PG) Beat(ctx context.Context, s System) error {
	_, err := r.pool.Exec(ctx, `INSERT INTO systems (owner, name, host, pid, version, agents, max_agents, load1, started, heartbeat)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
		ON CONFLICT (owner) DO UPDATE SET name = EXCLUDED.name, host = EXCLUDED.host, pid = EXCLUDED.pid,
			version = EXCLUDED.version, agents = EXCLUDED.agents, max_agents = EXCLUDED.max_agents,
			load1 = EXCLUDED.load1, started = EXCLUDED.started, heartbeat = EXCLUDED.heartbeat`,
		s.Owner, s.Name, s.Host, s.PID, s.Version, s.Agents, s.MaxAgents, s.Load1, s.Started.UTC(), s.Heartbeat.UTC())
	if err != nil {
		return fmt.Errorf("heartbeat: %w", err)
	}
	return nil
}

// Systems implements Registry.
func (r *PG) Systems(ctx context.Context, now time.Time) ([]System, error) {
	rows, err := r.pool.Query(ctx, `SELECT owner, name, host, pid, version, agents, max_agents, load1, started, heartbeat
		FROM systems ORDER BY owner`)
	if err != nil {
		return nil, fmt.Errorf("list systems: %w", err)
	}
	defer rows.Close()
	var out []System
	for rows.Next() {
		var s System
		if err := rows.Scan(&s.Owner, &s.Name, &s.Host, &s.PID, &s.Version, &s.Agents, &s.MaxAgents, &s.Load1, &s.Started, &s.Heartbeat); err != nil {
			return nil, fmt.Errorf("list systems: %w", err)
		}
		s.Started, s.Heartbeat = s.Started.UTC(), s.Heartbeat.UTC()
		s.Stale = r.Stale > 0 && now.Sub(s.Heartbeat) > r.Stale
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list systems: %w", err)
	}
	sortSystems(out)
	return out, nil
}

// Forget implements Registry.
func (r *PG) Forget(ctx context.Context, before time.Time) error {
	_, err := r.pool.Exec(ctx, `DELETE FROM systems WHERE heartbeat < $1`, before.UTC())
	return err
}
