// Package sqlite is the embedded event store: one SQLite file in WAL mode
// (modernc.org/sqlite, pure Go, no cgo).
//
// Hooks are short-lived processes that all write to the same file, so the
// connection is set up for that: busy_timeout for ordinary lock waits,
// synchronous=NORMAL (durable across process crashes, one fsync per
// checkpoint instead of per commit), and a bounded retry around the first
// statements, because SQLite may answer "database is locked" without calling
// the busy handler while a fresh file switches to WAL.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	driver "modernc.org/sqlite" // registers the "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"
)

// Store is the SQLite implementation of store.Local, and of store.Shared
// for a daemon alone.
type Store struct {
	db   *sql.DB
	path string
	// wmu serialises this process's writes: connections of one pool that
	// meet on SQLite's write lock wait in its busy handler, which sleeps
	// in steps of up to 100 ms; a mutex hands the lock over in
	// microseconds (the daemon's API, scheduler and hooks write side by
	// side). Other processes still wait on busy_timeout.
	wmu sync.Mutex
	// stmts caches prepared statements by their SQL (stmtcache.go);
	// nstmts counts them, to bound the cache.
	stmts  sync.Map
	nstmts atomic.Int32
	// checkMu guards checkedAt, when quick_check last passed (check.go).
	checkMu   sync.Mutex
	checkedAt time.Time
}

// openRetryBudget bounds the retry on "database is locked" at open.
const openRetryBudget = 2 * time.Second

// Open opens (creating if needed) the store at path, applies any pending
// migrations and makes sure the file is in WAL mode.
func Open(ctx context.Context, path string) (*Store, error) { return openWith(ctx, path, "") }

// OpenExisting opens the store at path only if it is there: a process
// that keeps a store someone else made (the keeper) must not make a new
// empty one where the user just removed it.
func OpenExisting(ctx context.Context, path string) (*Store, error) {
	return openWith(ctx, path, "&mode=rw")
}

func openWith(ctx context.Context, path, pragmas string) (*Store, error) {
	if !strings.Contains(pragmas, "mode=rw") {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("create store directory: %w", err)
		}
		// A new store is the user's alone: SQLite would create it with the
		// umask's mode (0644), and its WAL and shared-memory files take the
		// database file's. One open with O_EXCL, which fails at once when the
		// store exists (the common case: a hook opening it again).
		if f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
			f.Close()
		}
		// The file is there now (an empty file is an empty database), so
		// every connection opens it read-write without creating: a
		// server's pool opens connections long after this, and one
		// opened after the user removed the store must fail, not make a
		// new empty warden.db in its place (the daemon would then serve,
		// and the keeper guard, a file that is not the one opened).
		pragmas += "&mode=rw"
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() +
		"?_pragma=busy_timeout(5000)&_pragma=synchronous(NORMAL)&_txlock=immediate" + pragmas
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	// One connection by default: a hook process does a handful of
	// statements in sequence. A resident server answering hooks side by
	// side raises it (SetMaxOpenConns); SQLite still lets one writer at a
	// time in (BEGIN IMMEDIATE, busy_timeout, retryLocked).
	db.SetMaxOpenConns(1)
	s := &Store{db: db, path: path}
	if err := retryLocked(ctx, func() error { return s.migrate(ctx) }); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	return s, nil
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// SetMaxOpenConns lets a resident server (the keeper, the daemon) run
// requests side by side on up to n connections; a hook process keeps 1.
// The idle limit follows, so the connections stay open between requests
// (a new one parses the schema again).
func (s *Store) SetMaxOpenConns(n int) {
	s.db.SetMaxOpenConns(n)
	s.db.SetMaxIdleConns(n)
}

// SetMaxIdleConns keeps up to n of those connections open between
// requests, so a busy server does not reopen them.
func (s *Store) SetMaxIdleConns(n int) { s.db.SetMaxIdleConns(n) }

// Close closes the database.
func (s *Store) Close() error {
	s.closeStatements()
	return s.db.Close()
}

// retryLocked runs f until it succeeds, fails with something other than a
// lock error, or the budget is spent, backing off 1, 2, 3 … ms.
func retryLocked(ctx context.Context, f func() error) error {
	deadline := time.Now().Add(openRetryBudget)
	for i := 1; ; i++ {
		err := f()
		if err == nil || !isLocked(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(time.Duration(i) * time.Millisecond):
		}
	}
}

// execRetry runs a statement, retrying while the database is locked.
func (s *Store) execRetry(ctx context.Context, query string, args ...any) (sql.Result, error) {
	var res sql.Result
	s.wmu.Lock()
	defer s.wmu.Unlock()
	err := retryLocked(ctx, func() (err error) {
		res, err = cachedDB{s}.ExecContext(ctx, query, args...)
		return err
	})
	return res, err
}

// isLocked reports whether err is SQLite's BUSY or LOCKED (extended codes
// included), by the driver's result code rather than its message.
func isLocked(err error) bool {
	var se *driver.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff { // the primary code of an extended one
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return true
	}
	return false
}
