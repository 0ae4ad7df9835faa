package testenv

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// PostgresEnv names the URL of a PostgreSQL server the tests may create
// databases on (as a superuser or a role with CREATEDB). `make test` starts
// one for the whole suite (scripts/pg-test.sh) and sets it; unset, the
// first test that needs PostgreSQL starts a server for its process.
const PostgresEnv = "WARDEN_TEST_PG_URL"

var (
	pgMu     sync.Mutex
	pgShared *PGServer // started on demand when PostgresEnv is unset
	pgErr    error     // why it could not start; kept, not retried
	pgSeq    int
)

// Postgres returns the URL of a fresh, empty database on the suite's
// PostgreSQL server, dropped when the test ends. Without PostgreSQL the
// test is skipped, or failed under CI.
func Postgres(t testing.TB) string {
	t.Helper()
	admin := postgresAdminURL(t)
	return CreateDatabase(t, admin)
}

// CreateDatabase creates a database with a unique name on the server admin
// points to and returns its URL; the database is dropped (its connections
// ended) in t.Cleanup.
func CreateDatabase(t testing.TB, admin string) string {
	t.Helper()
	pgMu.Lock()
	pgSeq++
	seq := pgSeq
	pgMu.Unlock()
	var b [4]byte
	_, _ = rand.Read(b[:])
	name := fmt.Sprintf("warden_test_%d_%d_%s", os.Getpid(), seq, hex.EncodeToString(b[:]))
	if err := pgExec(admin, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create a test database on the suite's PostgreSQL (%s, or the server testenv started): %v", PostgresEnv, err)
	}
	t.Cleanup(func() {
		if err := pgExec(admin, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("drop test database %s: %v", name, err)
		}
	})
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatalf("%s: %v", PostgresEnv, err)
	}
	u.Path = "/" + name
	return u.String()
}

// postgresAdminURL is the server's URL: PostgresEnv, or a server this
// process starts once and stops in Cleanup (or its watchdog on exit).
func postgresAdminURL(t testing.TB) string {
	t.Helper()
	if u := os.Getenv(PostgresEnv); u != "" {
		return u
	}
	srv, missing, err := sharedPostgres()
	if missing != nil {
		SkipOrFail(t, missing.Error())
	}
	if err != nil {
		t.Fatal(err)
	}
	return srv.URL("postgres")
}

// sharedPostgres starts the process's server once; missing is set when
// PostgreSQL is not installed, err when it is but would not start.
func sharedPostgres() (srv *PGServer, missing, err error) {
	pgMu.Lock()
	defer pgMu.Unlock()
	if _, err := pgBinDir(); err != nil {
		return nil, err, nil
	}
	if pgShared == nil && pgErr == nil {
		pgShared, pgErr = StartPGServer()
		if pgErr != nil {
			pgErr = fmt.Errorf("start test PostgreSQL: %w", pgErr)
		}
	}
	return pgShared, nil, pgErr
}

// NewPostgres starts a server of the test's own, stopped and removed when
// the test ends: for tests that stop and restart it (outages). Without
// PostgreSQL the test is skipped, or failed under CI.
func NewPostgres(t testing.TB) *PGServer {
	t.Helper()
	if _, err := pgBinDir(); err != nil {
		SkipOrFail(t, err.Error())
	}
	s, err := StartPGServer()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Remove)
	return s
}

// stopSharedPostgres stops the server Postgres started, if any (Cleanup).
func stopSharedPostgres() {
	pgMu.Lock()
	defer pgMu.Unlock()
	if pgShared != nil {
		pgShared.Remove()
		pgShared = nil
	}
}

func pgExec(dsn, sql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, sql)
	return err
}

// UnreachablePostgres returns a PostgreSQL URL on a loopback port that
// was free a moment ago, so nothing answers there: a server that is down.
// Its password, "pw", is there for tests to check that no message shows it.
func UnreachablePostgres(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return fmt.Sprintf("postgres://postgres:pw@%s/warden", l.Addr())
}

// AllowConnections lets the database at dbURL take connections or not;
// refusing also ends the ones it has, as a server gone away would.
func AllowConnections(t testing.TB, dbURL string, allow bool) {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(u.Path, "/")
	u.Path = "/postgres"
	ctx := context.Background()
	c, err := pgx.Connect(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "ALTER DATABASE "+pgx.Identifier{name}.Sanitize()+" ALLOW_CONNECTIONS "+map[bool]string{true: "true", false: "false"}[allow]); err != nil {
		t.Fatal(err)
	}
	if !allow {
		if _, err := c.Exec(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", name); err != nil {
			t.Fatal(err)
		}
	}
}
