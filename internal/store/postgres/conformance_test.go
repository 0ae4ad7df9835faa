package postgres_test

import (
	"context"
	"testing"

	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/store/storetest"
	"github.com/warden-dev/warden/internal/testenv"
)

// TestConformance runs the Shared role's conformance suite on a real
// PostgreSQL server, a fresh database per test (the PostgreSQL store plays
// no other role).
func TestConformance(t *testing.T) { storetest.RunShared(t, backend) }

// BenchmarkActivity times the dashboard's queries on a real server
// (storetest.BenchActivity; internal/store/sqlite runs the same).
func BenchmarkActivity(b *testing.B) { storetest.BenchActivity(b, backend) }

var backend = storetest.SharedBackend{
	New: testenv.Postgres,
	Open: func(t testing.TB, url string) storetest.Shared {
		st, err := postgres.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		return st
	},
	Exec: func(t testing.TB, s storetest.Shared, sql string) {
		if _, err := s.(*postgres.Store).Pool().Exec(context.Background(), sql); err != nil {
			t.Fatal(err)
		}
	},
}
