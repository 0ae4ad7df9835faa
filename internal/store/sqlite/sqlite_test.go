package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func open(t *testing.T) *Store {
	t.Helper()
	st, err := Open(context.Background(), filepath.Join(t.TempDir(), "sub", "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestOpenCreatesSchemaInWAL(t *testing.T) {
	st := open(t)
	ctx := context.Background()
	if err := st.Check(ctx); err != nil {
		t.Fatal(err)
	}
	v, err := st.SchemaVersion(ctx)
	if err != nil || v != LatestVersion() || v < 1 {
		t.Fatalf("version %d (%v), want %d", v, err, LatestVersion())
	}
	var n int
	st.db.QueryRow("SELECT count(*) FROM schema_migrations").Scan(&n)
	if n != v {
		t.Errorf("schema_migrations has %d rows, want %d", n, v)
	}
	// Re-opening applies nothing twice.
	st2, err := Open(ctx, st.Path())
	if err != nil {
		t.Fatal(err)
	}
	st2.Close()
	st.db.QueryRow("SELECT count(*) FROM schema_migrations").Scan(&n)
	if n != v {
		t.Errorf("migrations re-applied: %d rows", n)
	}
}

func TestMigrationsAreNumberedInOrder(t *testing.T) {
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range ms {
		if (i > 0 && m.version <= ms[i-1].version) || strings.TrimSpace(m.sql) == "" {
			t.Errorf("migration %d: %s", i, m.name)
		}
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	st := open(t)
	st.db.Exec("PRAGMA user_version = 999")
	st.Close()
	if _, err := Open(context.Background(), st.Path()); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("want a 'newer than this warden' error, got %v", err)
	}
}

func TestCorruptFileIsReportedNotReplaced(t *testing.T) {
	path := filepath.Join(t.TempDir(), "warden.db")
	junk := []byte(strings.Repeat("not sqlite ", 1000))
	os.WriteFile(path, junk, 0o600)
	_, err := Open(context.Background(), path)
	if err == nil {
		t.Fatal("opened a corrupt file")
	}
	if !strings.Contains(err.Error(), path) {
		t.Errorf("error must name the file: %v", err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != string(junk) {
		t.Error("corrupt file was modified")
	}
}

// OpenExisting opens a store that is there and makes none where there is
// none: the error names the file and the path stays empty.
func TestOpenExistingMakesNoStore(t *testing.T) {
	st := open(t)
	st.Close()
	again, err := OpenExisting(context.Background(), st.Path())
	if err != nil {
		t.Fatalf("an existing store: %v", err)
	}
	again.Close()
	missing := filepath.Join(t.TempDir(), "gone", "warden.db")
	if _, err := OpenExisting(context.Background(), missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Fatalf("a missing store: %v, want an error naming %s", err, missing)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Fatalf("OpenExisting made %s: %v", missing, err)
	}
}

// A server's pool opens connections long after Open: one opened after
// the store was removed must fail, not make a new empty file in its place
// (the daemon and the keeper would then hold a store that is not the one
// they opened, and report it as replaced instead of removed).
func TestPoolDoesNotRecreateARemovedStore(t *testing.T) {
	st := open(t)
	st.SetMaxOpenConns(4)
	st.SetMaxIdleConns(0) // every statement takes a new connection
	ctx := context.Background()
	if err := st.db.PingContext(ctx); err != nil {
		t.Fatalf("ping the store: %v", err)
	}
	for _, p := range []string{st.Path(), st.Path() + "-wal", st.Path() + "-shm"} {
		os.Remove(p)
	}
	var n int
	if err := st.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&n); err == nil {
		t.Errorf("a new connection read a removed store (%d objects)", n)
	}
	if _, err := os.Stat(st.Path()); !os.IsNotExist(err) {
		t.Fatalf("a new connection made %s again: %v", st.Path(), err)
	}
}
