package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Migrations are the PostgreSQL twins of internal/store/sqlite/migrations:
// the same numbers, the same tables and columns (a test holds them to it),
// PostgreSQL's types. Each is applied in a transaction of its own, under a
// session advisory lock so workers starting together migrate once, and
// recorded in schema_migrations. A migration whose first line is
// noTxMarker runs outside a transaction instead (see applyOutsideTx).
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// noTxMarker, as a migration's first line, runs it outside a transaction,
// one statement at a time: CREATE INDEX CONCURRENTLY, which builds an
// index on a big table without blocking its writers, is refused inside a
// transaction. Such a migration must be safe to run again from any
// statement (an interrupted one is, next time): CREATE INDEX CONCURRENTLY
// IF NOT EXISTS only, checked when migrations load. Statements end with a
// ";" at the end of a line; "--" lines are comments.
const noTxMarker = "-- warden:no-transaction"

type migration struct {
	version int
	name    string
	sql     string
	noTx    bool
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
		m := migration{version: v, name: e.Name(), sql: string(b), noTx: strings.HasPrefix(string(b), noTxMarker+"\n")}
		if err := m.check(); err != nil {
			return nil, err
		}
		ms = append(ms, m)
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

func (s *Store) migrate(ctx context.Context) error { return s.migrateTo(ctx, math.MaxInt) }

// migrateTo applies the migrations up to version last (tests stop at an
// older schema).
func (s *Store) migrateTo(ctx context.Context, last int) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	err = s.withMigrationLock(ctx, func(conn *pgx.Conn) error {
		if _, err := conn.Exec(ctx, createVersions); err != nil {
			return err
		}
		// Read what ran inside the lock: another worker may have migrated
		// while we waited for it.
		applied, err := appliedVersions(ctx, conn)
		if err != nil {
			return err
		}
		known, done := map[int]bool{}, map[int]bool{}
		for _, m := range ms {
			known[m.version] = true
		}
		for _, v := range applied {
			done[v] = true
			if !known[v] {
				return fmt.Errorf("store %s has schema version %d, newer than this warden knows (%d): upgrade warden on this machine (every worker sharing %s needs the same or a newer version)",
					s.where, v, ms[len(ms)-1].version, urlKeys)
			}
		}
		for _, m := range ms {
			if done[m.version] || m.version > last {
				continue
			}
			if m.noTx {
				err = s.applyOutsideTx(ctx, conn, m)
			} else {
				err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
					if _, err := tx.Exec(ctx, m.sql); err != nil {
						return fmt.Errorf("migration %s on %s: %w", m.name, s.where, err)
					}
					return recordMigration(ctx, tx, m)
				})
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil && isPermission(err) {
		return s.connError(err)
	}
	return err
}

// withMigrationLock runs f on one connection holding the migration lock:
// a session advisory lock, since a migration outside a transaction has no
// transaction to hold one. It is taken by polling pg_try_advisory_lock,
// not by waiting in pg_advisory_lock: a statement blocked on the lock
// holds a snapshot, and CREATE INDEX CONCURRENTLY in the holder's
// migration waits for every older snapshot to end, so the two would wait
// for each other.
func (s *Store) withMigrationLock(ctx context.Context, f func(conn *pgx.Conn) error) error {
	pc, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer pc.Release()
	conn := pc.Conn()
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 250*time.Millisecond) {
		var ok bool
		if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", lockMigrate).Scan(&ok); err != nil {
			return err
		}
		if ok {
			break
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	ferr := f(conn)
	// The lock lives as long as the session: a connection that cannot
	// give it back is closed, not returned to the pool holding it.
	uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if _, err := conn.Exec(uctx, "SELECT pg_advisory_unlock($1)", lockMigrate); err != nil {
		conn.Close(uctx)
	}
	return ferr
}

// applyOutsideTx runs a noTxMarker migration one statement at a time and
// records it. Before each CREATE INDEX CONCURRENTLY it drops an INVALID
// index of that name: what a build interrupted last time (a killed
// worker, a lost connection) leaves, which IF NOT EXISTS would otherwise
// take for done. Under the migration lock no other build of ours runs.
func (s *Store) applyOutsideTx(ctx context.Context, conn *pgx.Conn, m migration) error {
	for _, stmt := range statements(m.sql) {
		if name := concurrentIndex(stmt); name != "" {
			var invalid bool
			err := conn.QueryRow(ctx, "SELECT NOT indisvalid FROM pg_index WHERE indexrelid = to_regclass(quote_ident($1))", name).Scan(&invalid)
			if err != nil && !errors.Is(err, pgx.ErrNoRows) {
				return fmt.Errorf("migration %s on %s: look for an invalid index %s: %w", m.name, s.where, name, err)
			}
			if invalid {
				if _, err := conn.Exec(ctx, "DROP INDEX CONCURRENTLY IF EXISTS "+pgx.Identifier{name}.Sanitize()); err != nil {
					return fmt.Errorf("migration %s on %s: drop the invalid index %s an interrupted build left: %w", m.name, s.where, name, err)
				}
			}
		}
		if _, err := conn.Exec(ctx, stmt); err != nil {
			return fmt.Errorf("migration %s on %s: %w", m.name, s.where, err)
		}
	}
	return recordMigration(ctx, conn, m)
}

func recordMigration(ctx context.Context, q querier, m migration) error {
	_, err := q.Exec(ctx, "INSERT INTO schema_migrations (version, name, applied_us) VALUES ($1, $2, $3)",
		m.version, m.name, time.Now().UnixMicro())
	return err
}

// createIndexRe matches any CREATE INDEX.
var createIndexRe = regexp.MustCompile(`(?is)^CREATE\s+(?:UNIQUE\s+)?INDEX\b`)

// concurrentIndexRe matches a CREATE INDEX CONCURRENTLY IF NOT EXISTS and
// its index's name.
var concurrentIndexRe = regexp.MustCompile(`(?is)^CREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+IF\s+NOT\s+EXISTS\s+(\w+)\s`)

// concurrentIndex is the name of the index stmt builds concurrently, "" if
// it builds none.
func concurrentIndex(stmt string) string {
	if m := concurrentIndexRe.FindStringSubmatch(stmt); m != nil {
		return m[1]
	}
	return ""
}

// statements splits a noTxMarker migration: "--" lines dropped, a
// statement ending with ";" at the end of a line.
func statements(sql string) []string {
	var out []string
	var cur strings.Builder
	for line := range strings.SplitSeq(sql, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "--") {
			continue
		}
		cur.WriteString(line + "\n")
		if strings.HasSuffix(t, ";") {
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		}
	}
	if rest := strings.TrimSpace(cur.String()); rest != "" {
		out = append(out, rest)
	}
	return out
}

// check refuses a noTxMarker migration that could not be run again after
// an interruption: each CREATE INDEX there must be CONCURRENTLY IF NOT
// EXISTS with a plain name.
func (m migration) check() error {
	if !m.noTx {
		return nil
	}
	for _, stmt := range statements(m.sql) {
		if createIndexRe.MatchString(stmt) && concurrentIndex(stmt) == "" {
			return fmt.Errorf("migration %s: outside a transaction (%s) an index is built with CREATE INDEX CONCURRENTLY IF NOT EXISTS NAME; fix: %.60s…", m.name, noTxMarker, stmt)
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
