package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Migrations are the PostgreSQL twins of internal/store/sqlite/migrations:
// the same numbers, the same tables and columns (a test holds them to it),
// PostgreSQL's types. Each is applied in a transaction of its own, under an
// advisory lock so workers starting together migrate once, and recorded in
// schema_migrations.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

// Migrations lists the migrations by version (for tests and doctor).
func Migrations() ([]int, error) {
	ms, err := loadMigrations()
	if err != nil {
		return nil, err
	}
	out := make([]int, len(ms))
	for i, m := range ms {
		out[i] = m.version
	}
	return out, nil
}

func loadMigrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %s: name must start with a number and _", e.Name())
		}
		b, err := migrationFiles.ReadFile("migrations/" + e.Name())
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: e.Name(), sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i := 1; i < len(ms); i++ {
		if ms[i].version == ms[i-1].version {
			return nil, fmt.Errorf("migrations %s and %s share a number", ms[i-1].name, ms[i].name)
		}
	}
	return ms, nil
}

// LatestVersion is the newest migration's number: the schema version this
// binary writes.
func LatestVersion() int {
	ms, err := loadMigrations()
	if err != nil || len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].version
}

// SchemaVersion is the newest applied migration's number (0: none).
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := s.pool.QueryRow(ctx, `SELECT COALESCE(max(version), 0) FROM schema_migrations`).Scan(&v)
	if err != nil {
		if isUndefinedTable(err) {
			return 0, nil
		}
		return 0, fmt.Errorf("read schema version of %s: %w", s.where, err)
	}
	return v, nil
}

const createVersions = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_us BIGINT NOT NULL)`

func (s *Store) migrate(ctx context.Context) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	known := map[int]bool{}
	for _, m := range ms {
		known[m.version] = true
	}
	for _, m := range ms {
		err := s.inTx(ctx, func(tx pgx.Tx) error {
			if err := lock(ctx, tx, lockMigrate); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, createVersions); err != nil {
				return err
			}
			// Read what ran inside the lock: another worker may have
			// migrated while we waited for it.
			applied, err := appliedVersions(ctx, tx)
			if err != nil {
				return err
			}
			for _, v := range applied {
				if !known[v] {
					return fmt.Errorf("store %s has schema version %d, newer than this warden knows (%d): upgrade warden on this machine (every worker sharing %s needs the same or a newer version)",
						s.where, v, ms[len(ms)-1].version, urlKeys)
				}
			}
			for _, v := range applied {
				if v == m.version {
					return nil
				}
			}
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return fmt.Errorf("migration %s on %s: %w", m.name, s.where, err)
			}
			_, err = tx.Exec(ctx, "INSERT INTO schema_migrations (version, name, applied_us) VALUES ($1, $2, $3)",
				m.version, m.name, time.Now().UnixMicro())
			return err
		})
		if err != nil {
			if isPermission(err) {
				return s.connError(err)
			}
			return err
		}
	}
	return nil
}

func appliedVersions(ctx context.Context, q querier) ([]int, error) {
	rows, err := q.Query(ctx, "SELECT version FROM schema_migrations ORDER BY version")
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int])
}
