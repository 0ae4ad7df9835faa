package helper_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/testenv"
)

// TestMain runs the package's tests in a home of their own (testenv.Main).
func TestMain(m *testing.M) { testenv.Main(m) }

// `warden store check` and `warden doctor` on the store the environment
// names: SQLite without a URL; a PostgreSQL store with its schema: ok; one
// not migrated yet, or a server that does not answer: exit 1 and one line
// with the fix, nothing changed.
func TestStoreCheckAndDoctor(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two binaries")
	}
	ctx := context.Background()
	dir := testenv.Binaries(t, "warden", "warden-helper")
	migrated := testenv.Postgres(t)
	st, err := postgres.Open(ctx, migrated)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	empty := testenv.Postgres(t)
	down := testenv.UnreachablePostgres(t)

	run := func(url string, args ...string) (string, int) {
		cmd := exec.Command(filepath.Join(dir, "warden"), args...)
		cmd.Env = append(os.Environ(), "WARDEN_HOME="+t.TempDir(), "HOME="+t.TempDir(), "WARDEN_DATABASE_URL="+url)
		return testenv.RunCombined(t, cmd)
	}
	for _, c := range []struct {
		name, url string
		code      int
		want      []string
	}{
		{"sqlite", "", 0, []string{"store: SQLite at", "not set"}},
		{"migrated", migrated, 0, []string{"store: PostgreSQL 1", "(from WARDEN_DATABASE_URL), schema ", ": ok"}},
		{"not migrated", empty, 1, []string{"schema version 0, this warden expects", "run warden serve"}},
		{"down", down, 1, []string{"cannot reach PostgreSQL", "store.url / WARDEN_DATABASE_URL"}},
		{"not a URL", "mysql://x@y/z", 1, []string{"WARDEN_DATABASE_URL: has scheme mysql"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, code := run(c.url, "store", "check")
			if code != c.code {
				t.Errorf("exit %d, want %d:\n%s", code, c.code, out)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if strings.Contains(out, ":pw@") || strings.Count(strings.TrimSpace(out), "\n") > 0 {
				t.Errorf("want one line without the password:\n%s", out)
			}
		})
	}
	// Checking changed nothing: the empty database is still empty.
	check, err := postgres.Connect(ctx, empty)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := check.SchemaVersion(ctx); v != 0 {
		t.Errorf("store check migrated the database to %d", v)
	}
	check.Close()

	doctor := func(url string) map[string]string {
		out, _ := run(url, "doctor", "--json")
		var r struct {
			Checks []struct{ Name, Level, Detail string }
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("doctor --json: %v\n%s", err, out)
		}
		for _, c := range r.Checks {
			if c.Name == "shared store" {
				return map[string]string{"level": c.Level, "detail": c.Detail}
			}
		}
		t.Fatalf("doctor has no shared store check:\n%s", out)
		return nil
	}
	if got := doctor(migrated); got["level"] != "ok" || !strings.Contains(got["detail"], "PostgreSQL") {
		t.Errorf("doctor, migrated store: %v", got)
	}
	if got := doctor(down); got["level"] != "warn" || !strings.Contains(got["detail"], "cannot reach PostgreSQL") {
		t.Errorf("doctor, server down: %v", got)
	}
	if got := doctor(""); got["level"] != "info" {
		t.Errorf("doctor, no URL: %v", got)
	}
}
