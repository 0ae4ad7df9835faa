package backend

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/testenv"
)

// TestMain runs the package's tests in a home of their own (testenv.Main).
func TestMain(m *testing.M) { testenv.Main(m) }

// No URL: the SQLite file; a URL: that PostgreSQL database; a bad URL: an
// error naming the setting, and no SQLite file made instead.
func TestOpenChoosesByURL(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "w.db")
	st, err := Open(ctx, "", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := st.(*sqlite.Store); !ok {
		t.Errorf("no URL opened %T", st)
	}
	st.Close()

	st, err = Open(ctx, testenv.Postgres(t), filepath.Join(t.TempDir(), "unused.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := st.(*postgres.Store); !ok {
		t.Errorf("a URL opened %T", st)
	}
	if err := st.Check(ctx); err != nil {
		t.Error(err)
	}
	st.Close()

	other := filepath.Join(t.TempDir(), "never.db")
	if _, err := Open(ctx, "postgres://u@127.0.0.1:1/x", other); err == nil || !strings.Contains(err.Error(), "WARDEN_DATABASE_URL") {
		t.Errorf("unreachable server: %v", err)
	}
	if _, err := os.Stat(other); err == nil {
		t.Error("a failed PostgreSQL open made a SQLite file")
	}
}
