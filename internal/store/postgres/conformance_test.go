package postgres

import (
	"context"
	"os"
	"testing"

	"github.com/warden-dev/warden/internal/store/storetest"
	"github.com/warden-dev/warden/internal/testenv"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.Cleanup() // stops the PostgreSQL server testenv started, if it did
	os.Exit(code)
}

// open opens a store on a fresh database of the suite's server.
func open(t testing.TB) *Store {
	t.Helper()
	st, err := Open(context.Background(), testenv.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestConformance runs the store conformance suite on a real PostgreSQL
// server, a fresh database per test.
func TestConformance(t *testing.T) {
	storetest.Run(t, storetest.Backend{
		New: testenv.Postgres,
		Open: func(t testing.TB, url string) storetest.Store {
			st, err := Open(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			return st
		},
		Exec: func(t testing.TB, s storetest.Store, sql string) {
			if _, err := s.(*Store).Pool().Exec(context.Background(), sql); err != nil {
				t.Fatal(err)
			}
		},
	})
}
