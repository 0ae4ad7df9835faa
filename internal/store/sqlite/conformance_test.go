package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
	"github.com/warden-dev/warden/internal/store/storetest"
)

// TestConformance runs the store conformance suite on a real SQLite file,
// with the connections a resident server (the daemon) opens: the Local
// role, and the Shared one a daemon alone keeps in it.
func TestConformance(t *testing.T) {
	t.Run("Local", func(t *testing.T) { storetest.RunLocal(t, role[store.Local]()) })
	t.Run("Shared", func(t *testing.T) { storetest.RunShared(t, role[store.Shared]()) })
}

// BenchmarkActivity times the dashboard's queries (storetest.BenchActivity;
// internal/store/postgres runs the same).
func BenchmarkActivity(b *testing.B) { storetest.BenchActivity(b, role[store.Shared]()) }

// role is the SQLite store as S, one of the roles it plays.
func role[S interface{ Close() error }]() storetest.Backend[S] {
	return storetest.Backend[S]{
		New: func(t testing.TB) string { return filepath.Join(t.TempDir(), "warden.db") },
		Open: func(t testing.TB, path string) S {
			st, err := sqlite.Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			st.SetMaxOpenConns(4)
			return any(st).(S)
		},
		Exec: func(t testing.TB, s S, sql string) {
			sqlitetest.Exec(t, any(s).(*sqlite.Store).Path(), sql)
		},
	}
}
