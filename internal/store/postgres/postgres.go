// Package postgres is the shared store of a pool (the store.Shared role):
// the same tables as internal/store/sqlite and the same behaviour in that
// role (the conformance suite in internal/store/storetest runs the role on
// both), on a PostgreSQL server that several warden workers use at once.
// Hooks never write here: they record in the local SQLite store, and the
// shipper (internal/store/ship) copies the rows on.
//
// It talks to PostgreSQL through pgx's own pool (pgxpool), not
// database/sql: the task queue's workers wait on LISTEN/NOTIFY, which
// needs a native connection held apart from the pool (Pool().Acquire and
// WaitForNotification), claims and the audit chain run under row and
// advisory locks inside pgx transactions, and sharing SQL text with the
// SQLite store would not work anyway ($n placeholders, reserved words such
// as "window" and "offset", ON CONFLICT instead of INSERT OR IGNORE).
//
// Times are unix microseconds in BIGINT columns, as in SQLite, so rows
// move between the two stores unchanged and the audit chain hashes match.
package postgres

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/warden-dev/warden/internal/store"
)

// Store is the PostgreSQL implementation of store.Shared.
type Store struct {
	pool *pgxpool.Pool
	// where names the server for messages: host:port/database, no
	// password.
	where string
}

// TaskChannel is the NOTIFY channel a new or re-queued task is announced
// on (payload: the task id); workers LISTEN on it instead of polling.
const TaskChannel = "warden_tasks"

// MinServerVersion is the oldest PostgreSQL warden supports (13: DROP
// DATABASE … WITH (FORCE) in tests, and the planner's handling of the
// queue's partial and SKIP LOCKED queries it was tested with).
const MinServerVersion = 13

// Advisory lock keys (pg_advisory_xact_lock): one writer at a time appends
// to the audit chain, creates tasks (queue limit, idempotency keys) or
// migrates the schema. Arbitrary constants, spelling "wardn" and a number.
const (
	lockChain   int64 = 0x776172646e_01
	lockTasks   int64 = 0x776172646e_02
	lockMigrate int64 = 0x776172646e_03
)

// Open connects to the PostgreSQL database at url (a postgres:// URL or a
// key=value connection string), checks the server's version, and applies
// pending migrations. Its errors are one line naming store.url /
// WARDEN_DATABASE_URL and the fix.
func Open(ctx context.Context, url string) (*Store, error) {
	s, err := Connect(ctx, url)
	if err != nil {
		return nil, err
	}
	if err := s.migrate(ctx); err != nil {
		s.pool.Close()
		return nil, err
	}
	return s, nil
}

// Connect is Open without migrating: for checks (warden doctor, warden
// store check) that must not change the schema.
func Connect(ctx context.Context, url string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("%s: not a PostgreSQL URL (%v); fix: postgres://USER:PASSWORD@HOST:5432/DATABASE", urlKeys, oneLine(err))
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = 10 * time.Second
	}
	// Bounds unless the URL sets its own: no statement runs (or waits for
	// a lock) forever, and a worker cut off mid-transaction does not hold
	// the chain's or the queue's lock for longer than a minute.
	for k, v := range map[string]string{"statement_timeout": "60s", "idle_in_transaction_session_timeout": "60s"} {
		if _, set := cfg.ConnConfig.RuntimeParams[k]; !set {
			cfg.ConnConfig.RuntimeParams[k] = v
		}
	}
	s := &Store{where: where(cfg.ConnConfig.Config)}
	// The pool connects lazily: Ping makes the first connection now, so a
	// wrong host, password or database fails with its own message.
	s.pool, err = pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, s.connError(err)
	}
	if err := s.Ping(ctx); err != nil {
		s.pool.Close()
		return nil, err
	}
	return s, nil
}

// urlKeys names where the URL came from, for every message about it.
const urlKeys = "store.url / WARDEN_DATABASE_URL"

func where(c pgconn.Config) string {
	return c.Host + ":" + strconv.Itoa(int(c.Port)) + "/" + c.Database
}

// Where is the server and database as host:port/database (no password).
func (s *Store) Where() string { return s.where }

// WhereURL is Where for a URL not opened yet (messages while the server
// does not answer); "" when the URL does not parse.
func WhereURL(url string) string {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return ""
	}
	return where(cfg.ConnConfig.Config)
}

// Pool exposes the connection pool: the daemon LISTENs on TaskChannel on
// a connection it acquires from it.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// Close closes every connection.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// Ping checks that the server answers and is recent enough (doctor,
// /health/db); its error is one line with the fix.
func (s *Store) Ping(ctx context.Context) error {
	var num int
	if err := s.pool.QueryRow(ctx, "SELECT current_setting('server_version_num')::int").Scan(&num); err != nil {
		return s.connError(err)
	}
	return checkVersion(s.where, num)
}

// checkVersion refuses a server older than MinServerVersion; num is its
// server_version_num (150018 is 15.18).
func checkVersion(where string, num int) error {
	if num/10000 < MinServerVersion {
		return fmt.Errorf("PostgreSQL at %s is version %d.%d; warden needs %d or newer: upgrade the server or point %s at another",
			where, num/10000, num%10000, MinServerVersion, urlKeys)
	}
	return nil
}

// Check implements store.RecordReader: the server answers, is recent enough, and
// has the schema this warden expects.
func (s *Store) Check(ctx context.Context) error {
	if err := s.Ping(ctx); err != nil {
		return err
	}
	v, err := s.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	if want := LatestVersion(); v != want {
		return fmt.Errorf("store %s has schema version %d, this warden expects %d: run warden serve (it migrates) or upgrade warden", s.where, v, want)
	}
	return nil
}

// querier is what a pool and a transaction share.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// inTx runs f in one transaction, committed when f returns nil.
func (s *Store) inTx(ctx context.Context, f func(tx pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, s.pool, f)
}

// lock takes a transaction-level advisory lock, released at commit or
// rollback.
func lock(ctx context.Context, tx pgx.Tx, key int64) error {
	_, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", key)
	return err
}

// params builds a statement's $n placeholders as arguments are added.
type params []any

func (p *params) add(v any) string {
	*p = append(*p, v)
	return "$" + strconv.Itoa(len(*p))
}

// The PostgreSQL store plays the shared role only: hooks record in the
// local SQLite store and ship from it (internal/store/roles.go).
var _ store.Shared = (*Store)(nil)
