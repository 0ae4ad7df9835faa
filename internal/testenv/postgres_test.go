package testenv

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestMain runs the package's tests in a home of their own.
func TestMain(m *testing.M) { Main(m) }

// TestPostgresFreshDatabases: each call gives an empty database of its own
// that takes writes, and it is gone after the test's cleanup.
func TestPostgresFreshDatabases(t *testing.T) {
	ctx := context.Background()
	var names []string
	var admin string
	t.Run("create", func(t *testing.T) {
		a, b := Postgres(t), Postgres(t)
		if a == b {
			t.Fatalf("same database twice: %s", a)
		}
		for _, u := range []string{a, b} {
			conn, err := pgx.Connect(ctx, u)
			if err != nil {
				t.Fatal(err)
			}
			var n int
			if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_tables WHERE schemaname = 'public'`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != 0 {
				t.Errorf("%s: %d tables in a fresh database", u, n)
			}
			if _, err := conn.Exec(ctx, `CREATE TABLE t (x int)`); err != nil {
				t.Fatal(err)
			}
			var name string
			conn.QueryRow(ctx, `SELECT current_database()`).Scan(&name)
			names = append(names, name)
			conn.Close(ctx)
		}
		admin = postgresAdminURL(t)
	})
	if admin == "" {
		return // skipped
	}
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, name := range names {
		var n int
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_database WHERE datname = $1`, name).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("database %s still exists after the test", name)
		}
	}
}

// TestPGServerStopStart: a test's own server stops (connections fail) and
// starts again on the same port with its data.
func TestPGServerStopStart(t *testing.T) {
	ctx := context.Background()
	s := NewPostgres(t)
	u := CreateDatabase(t, s.URL("postgres"))
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE kept (x int); INSERT INTO kept VALUES (7)`); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if c, err := pgx.Connect(ctx, u); err == nil {
		c.Close(ctx)
		t.Fatal("connected to a stopped server")
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	conn, err = pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var x int
	if err := conn.QueryRow(ctx, `SELECT x FROM kept`).Scan(&x); err != nil || x != 7 {
		t.Fatalf("after restart: x=%d err=%v", x, err)
	}
}

// scripts/pg-test.sh runs the command with a server of its own in
// WARDEN_TEST_PG_URL, passes on its exit status, and stops the server
// afterwards.
func TestPGTestScript(t *testing.T) {
	if _, err := pgBinDir(); err != nil {
		SkipOrFail(t, err.Error())
	}
	ctx := context.Background()
	cmd := exec.Command("../../scripts/pg-test.sh", "sh", "-c", `echo "$WARDEN_TEST_PG_URL"; read _; exit 3`)
	cmd.Env = append(os.Environ(), PostgresEnv+"=")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("no URL from the script: %v", err)
	}
	u := strings.TrimSpace(line)
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatalf("the script's server %s: %v", u, err)
	}
	conn.Close(ctx)
	stdin.Close() // the command exits 3
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Errorf("script exit: %v, want the command's status 3", err)
	}
	if c, err := pgx.Connect(ctx, u); err == nil {
		c.Close(ctx)
		t.Error("the server still runs after the script")
	}
}
