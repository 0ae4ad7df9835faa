// Package sqlitetest reaches into a warden SQLite store file the way
// another process would — a user with sqlite3, an agent tampering with its
// record, a second writer holding the lock — for tests of what warden does
// then. It opens its own connection to the file; the store's API offers no
// raw SQL. Production code never imports it.
package sqlitetest

import (
	"context"
	"database/sql"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" driver

	"github.com/warden-dev/warden/internal/hookwire/settle"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// Open opens a connection pool of its own to the store file at path,
// closed when the test ends.
func Open(t testing.TB, path string) *sql.DB {
	t.Helper()
	settle.Wait(filepath.Dir(path), 10*time.Second) // a keeper records after it answers
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?_pragma=busy_timeout(5000)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

// Exec runs one statement on the file at path and fails the test on error.
func Exec(t testing.TB, path, query string, args ...any) sql.Result {
	t.Helper()
	res, err := Open(t, path).ExecContext(context.Background(), query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return res
}

// Store opens the warden store at path through its API (creating it, as
// a hook would), closed when the test ends.
func Store(t testing.TB, path string) *sqlite.Store {
	t.Helper()
	settle.Wait(filepath.Dir(path), 10*time.Second) // a keeper records after it answers
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// Create makes the warden store at path, schema and all, and closes it
// again: a home as a first hook leaves it.
func Create(t testing.TB, path string) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
}

// Events reads every event recorded in the store at path, oldest first,
// on a connection closed before it returns.
func Events(t testing.TB, path string) []store.Event {
	t.Helper()
	settle.Wait(filepath.Dir(path), 10*time.Second) // a keeper records after it answers
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	evs, err := st.Events(context.Background(), store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// RecordAt records n PreToolUse Bash events of session in st, one second
// apart from at (an old time, for retention tests), each with state as
// the session's saved state when it is not nil.
func RecordAt(t testing.TB, st *sqlite.Store, session string, at time.Time, n int, state []byte) {
	t.Helper()
	for i := range n {
		var sess *store.Session
		if state != nil {
			sess = &store.Session{ID: session, State: state}
		}
		ev := &store.Event{SessionID: session, Event: "PreToolUse", Tool: "Bash", Time: at.Add(time.Duration(i) * time.Second)}
		if err := st.RecordHook(context.Background(), ev, sess); err != nil {
			t.Fatal(err)
		}
	}
}
