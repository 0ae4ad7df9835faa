package sqlite

import (
	"context"
	"database/sql"
	"errors"
)

// The statements every hook runs (its session, a few settings, the chain
// tip, the event insert, the session upsert) are prepared once per store
// and reused: the driver (modernc.org/sqlite) keeps no statement cache, and
// parsing the SQL anew was about half of a served hook's CPU time
// (BenchmarkHookServed). database/sql prepares a cached statement again on
// each pooled connection it runs on, and SQLite re-prepares one whose
// schema changed, so a cached statement is always valid.

// prepared is the store's statement for query, prepared on first use. An
// error (a closed store, a statement SQLite rejects) is returned for the
// caller to fall back to the unprepared path, which reports it properly.
func (s *Store) prepared(ctx context.Context, query string) (*sql.Stmt, error) {
	if v, ok := s.stmts.Load(query); ok {
		return v.(*sql.Stmt), nil
	}
	if s.nstmts.Load() >= maxCachedStatements {
		return nil, errCacheFull
	}
	st, err := s.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if v, loaded := s.stmts.LoadOrStore(query, st); loaded {
		st.Close() // another goroutine prepared it first
		return v.(*sql.Stmt), nil
	}
	s.nstmts.Add(1)
	return st, nil
}

// maxCachedStatements bounds the cache: the store's SQL is a fixed set of
// constant strings, so this is only a guard against one built per call.
const maxCachedStatements = 256

var errCacheFull = errors.New("statement cache full")

// closeStatements closes every cached statement (before the database).
func (s *Store) closeStatements() {
	s.stmts.Range(func(k, v any) bool {
		v.(*sql.Stmt).Close()
		s.stmts.Delete(k)
		return true
	})
}

// cachedDB runs a store's queries through its statement cache; it has the
// method set of *sql.DB the helpers here take.
type cachedDB struct{ s *Store }

func (c cachedDB) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st, err := c.s.prepared(ctx, query); err == nil {
		return st.QueryRowContext(ctx, args...)
	}
	return c.s.db.QueryRowContext(ctx, query, args...)
}

func (c cachedDB) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st, err := c.s.prepared(ctx, query); err == nil {
		return st.QueryContext(ctx, args...)
	}
	return c.s.db.QueryContext(ctx, query, args...)
}

func (c cachedDB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st, err := c.s.prepared(ctx, query); err == nil {
		return st.ExecContext(ctx, args...)
	}
	return c.s.db.ExecContext(ctx, query, args...)
}

// warm prepares queries ahead of a transaction that will use them through
// cachedTx: preparing needs a connection of the pool, and inside a
// transaction of a one-connection store (a hook's own process) the
// transaction holds the only one.
func (s *Store) warm(ctx context.Context, queries ...string) {
	for _, q := range queries {
		_, _ = s.prepared(ctx, q)
	}
}

// cachedTx is cachedDB inside a transaction: a statement already in the
// cache (see warm), bound to the transaction's connection (prepared there
// once, then reused); any other runs unprepared.
type cachedTx struct {
	s  *Store
	tx *sql.Tx
}

func (c cachedTx) stmt(ctx context.Context, query string) *sql.Stmt {
	if v, ok := c.s.stmts.Load(query); ok {
		return c.tx.StmtContext(ctx, v.(*sql.Stmt))
	}
	return nil
}

func (c cachedTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := c.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return c.tx.QueryRowContext(ctx, query, args...)
}

func (c cachedTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := c.stmt(ctx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return c.tx.ExecContext(ctx, query, args...)
}
