package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
	"github.com/warden-dev/warden/internal/store/storetest"
)

// TestConformance runs the store conformance suite on a real SQLite file,
// with the connections a resident server (the daemon) opens.
func TestConformance(t *testing.T) { storetest.Run(t, backend) }

// BenchmarkActivity times the dashboard's queries (storetest.BenchActivity;
// internal/store/postgres runs the same).
func BenchmarkActivity(b *testing.B) { storetest.BenchActivity(b, backend) }

var backend = storetest.Backend{
	New: func(t testing.TB) string { return filepath.Join(t.TempDir(), "warden.db") },
	Open: func(t testing.TB, path string) storetest.Store {
		st, err := sqlite.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		st.SetMaxOpenConns(4)
		return st
	},
	Exec: func(t testing.TB, s storetest.Store, sql string) {
		sqlitetest.Exec(t, s.(*sqlite.Store).Path(), sql)
	},
}
