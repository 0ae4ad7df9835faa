package postgres

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
	"github.com/warden-dev/warden/internal/task"
	"github.com/warden-dev/warden/internal/testenv"
)

// TestMain runs the package's tests in a home of their own (testenv.Main).
func TestMain(m *testing.M) { testenv.Main(m) }

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

// TestSameMigrationsAsSQLite: both dialects have migrations of the same
// numbers, and a migrated store has the same tables with the same columns.
func TestSameMigrationsAsSQLite(t *testing.T) {
	ctx := context.Background()
	entries, err := os.ReadDir("../sqlite/migrations")
	if err != nil {
		t.Fatal(err)
	}
	var lite []int
	for _, e := range entries {
		var v int
		if _, err := fmt.Sscanf(e.Name(), "%d_", &v); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		lite = append(lite, v)
	}
	pg, err := Migrations()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(lite, pg) {
		t.Errorf("migration numbers differ:\nsqlite   %v\npostgres %v\n(every SQLite migration needs its twin in internal/store/postgres/migrations)", lite, pg)
	}

	ls, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer ls.Close()
	liteCols := map[string][]string{}
	rows, err := sqlitetest.Open(t, ls.Path()).QueryContext(ctx, `SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, p.name`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var tbl, col string
		rows.Scan(&tbl, &col)
		liteCols[tbl] = append(liteCols[tbl], col)
	}
	rows.Close()

	ps := open(t)
	pgCols := map[string][]string{}
	prows, err := ps.Pool().Query(ctx, `SELECT table_name, column_name FROM information_schema.columns
		WHERE table_schema = 'public' ORDER BY table_name, column_name`)
	if err != nil {
		t.Fatal(err)
	}
	for prows.Next() {
		var tbl, col string
		prows.Scan(&tbl, &col)
		pgCols[tbl] = append(pgCols[tbl], col)
	}
	prows.Close()
	if len(liteCols) < 10 {
		t.Fatalf("only %d SQLite tables", len(liteCols))
	}
	for tbl, cols := range liteCols {
		if !slices.Equal(cols, pgCols[tbl]) {
			t.Errorf("table %s:\nsqlite   %v\npostgres %v", tbl, cols, pgCols[tbl])
		}
	}
	for tbl := range pgCols {
		if liteCols[tbl] == nil {
			t.Errorf("table %s only in PostgreSQL", tbl)
		}
	}
}

// Workers starting together migrate once; opening again applies nothing.
func TestConcurrentOpenMigratesOnce(t *testing.T) {
	ctx := context.Background()
	u := testenv.Postgres(t)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			st, err := Open(ctx, u)
			if err != nil {
				t.Error(err)
				return
			}
			st.Close()
		})
	}
	wg.Wait()
	st, err := Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var n int
	st.Pool().QueryRow(ctx, "SELECT count(*) FROM schema_migrations").Scan(&n)
	ms, _ := Migrations()
	if n != len(ms) {
		t.Errorf("schema_migrations has %d rows, want %d", n, len(ms))
	}
	if v, _ := st.SchemaVersion(ctx); v != LatestVersion() {
		t.Errorf("schema version %d, want %d", v, LatestVersion())
	}
	if err := st.Check(ctx); err != nil {
		t.Error(err)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	ctx := context.Background()
	u := testenv.Postgres(t)
	st, err := Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	st.Pool().Exec(ctx, "INSERT INTO schema_migrations VALUES (9999, '9999_future.sql', 0)")
	if err := st.Check(ctx); err == nil {
		t.Error("Check passed a store of a newer schema")
	}
	st.Close()
	_, err = Open(ctx, u)
	if err == nil || !strings.Contains(err.Error(), "9999") || !strings.Contains(err.Error(), "upgrade warden") {
		t.Fatalf("want a 'newer schema 9999, upgrade warden' error, got %v", err)
	}
}

// Bad URLs, servers and databases: one line naming the setting and the
// fix, and never the password.
func TestOpenErrorsNameTheSettingAndFix(t *testing.T) {
	ctx := context.Background()
	good, err := url.Parse(testenv.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	with := func(f func(u *url.URL)) string {
		u := *good
		f(&u)
		return u.String()
	}
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	closedPort := l.Addr().(*net.TCPAddr).Port
	l.Close()
	for _, c := range []struct {
		name, url string
		want      []string
	}{
		{"not a URL", "postgres://u:secret@host:notaport/db", []string{"not a PostgreSQL URL", "postgres://USER:PASSWORD@HOST:5432/DATABASE"}},
		{"nothing listening", with(func(u *url.URL) {
			u.Host = fmt.Sprintf("127.0.0.1:%d", closedPort)
			u.User = url.UserPassword("postgres", "secret")
		}), []string{"cannot reach PostgreSQL", "start the server or fix the host and port"}},
		{"unknown user", with(func(u *url.URL) { u.User = url.UserPassword("nobody_here", "secret") }),
			[]string{"refused the login", "fix the user or password"}},
		{"missing database", with(func(u *url.URL) { u.Path = "/no_such_db" }),
			[]string{`no database "no_such_db"`, "createdb no_such_db"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
			defer cancel()
			st, err := Open(cctx, c.url)
			if err == nil {
				st.Close()
				t.Fatal("opened")
			}
			msg := err.Error()
			for _, w := range append(c.want, urlKeys) {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			if strings.Contains(msg, "secret") || strings.Contains(msg, "\n") {
				t.Errorf("error shows the password or spans lines: %q", msg)
			}
		})
	}
}

func TestServerVersionCheck(t *testing.T) {
	for _, c := range []struct {
		num int
		ok  bool
	}{{120017, false}, {130000, true}, {150018, true}, {170002, true}, {90624, false}} {
		err := checkVersion("h:5432/db", c.num)
		if (err == nil) != c.ok {
			t.Errorf("version %d: %v", c.num, err)
		}
		if err != nil && (!strings.Contains(err.Error(), "needs 13 or newer") || !strings.Contains(err.Error(), urlKeys)) {
			t.Errorf("version %d: %v", c.num, err)
		}
	}
	st := open(t)
	if err := st.Ping(context.Background()); err != nil {
		t.Errorf("Ping of the suite's server: %v", err)
	}
}

// A queued task is announced on TaskChannel when its transaction commits:
// created, or moved back to queued; a create that fails announces nothing.
func TestNotifyOnQueuedTasks(t *testing.T) {
	ctx := context.Background()
	st := open(t)
	conn, err := st.Pool().Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "LISTEN "+TaskChannel); err != nil {
		t.Fatal(err)
	}
	next := func() (string, error) {
		wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		n, err := conn.Conn().WaitForNotification(wctx)
		if err != nil {
			return "", err
		}
		return n.Payload, nil
	}
	now := time.Now()
	mk := func(id string) *task.Task {
		return &task.Task{ID: id, Project: "/p", Prompt: id, Status: task.Queued, CreatedAt: now, UpdatedAt: now}
	}
	if _, _, err := st.CreateTask(ctx, mk("n1"), 1); err != nil {
		t.Fatal(err)
	}
	if got, err := next(); err != nil || got != "n1" {
		t.Fatalf("after create: %q %v", got, err)
	}
	if _, _, err := st.CreateTask(ctx, mk("n2"), 1); !errors.Is(err, task.ErrQueueFull) {
		t.Fatalf("want queue full, got %v", err)
	}
	if _, err := st.ClaimNext(ctx, "w", "", "r", now); err != nil {
		t.Fatal(err)
	}
	if _, err := st.UpdateTask(ctx, "n1", task.Change{From: []task.Status{task.Claimed}, To: task.Queued, Requeue: true, Reason: "lost"}); err != nil {
		t.Fatal(err)
	}
	// The failed create sent nothing: the next notice is the requeue.
	if got, err := next(); err != nil || got != "n1" {
		t.Fatalf("after requeue: %q %v", got, err)
	}
	if _, err := st.UpdateTask(ctx, "n1", task.Change{To: task.Cancelled, Reason: "x"}); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if n, err := conn.Conn().WaitForNotification(wctx); err == nil {
		t.Errorf("a cancel announced %q", n.Payload)
	}
}

// A server that wants a password: the wrong one is one line saying the
// login was refused and what to fix, without the password; the right one
// opens.
func TestWrongPassword(t *testing.T) {
	ctx := context.Background()
	srv := testenv.NewPostgres(t)
	if err := srv.RequirePassword("right-pw"); err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(srv.URL("postgres"))
	u.User = url.UserPassword("postgres", "wrong-pw")
	_, err := Open(ctx, u.String())
	if err == nil {
		t.Fatal("opened with the wrong password")
	}
	msg := err.Error()
	for _, w := range []string{"refused the login", "password authentication failed", "fix the user or password in " + urlKeys} {
		if !strings.Contains(msg, w) {
			t.Errorf("error %q lacks %q", msg, w)
		}
	}
	if strings.Contains(msg, "wrong-pw") || strings.Contains(msg, "\n") {
		t.Errorf("error shows the password or spans lines: %q", msg)
	}
	u.User = url.UserPassword("postgres", "right-pw")
	st, err := Open(ctx, u.String())
	if err != nil {
		t.Fatalf("the right password: %v", err)
	}
	st.Close()
}

// Sessions get statement and idle-in-transaction timeouts unless the URL
// sets its own.
func TestSessionTimeouts(t *testing.T) {
	ctx := context.Background()
	u := testenv.Postgres(t)
	for _, c := range []struct{ url, want string }{{u, "1min"}, {u + "&statement_timeout=5000", "5s"}} {
		st, err := Open(ctx, c.url)
		if err != nil {
			t.Fatal(err)
		}
		var stmt, idle string
		st.Pool().QueryRow(ctx, "SHOW statement_timeout").Scan(&stmt)
		st.Pool().QueryRow(ctx, "SHOW idle_in_transaction_session_timeout").Scan(&idle)
		st.Close()
		if stmt != c.want || idle != "1min" {
			t.Errorf("%s: statement_timeout %q idle %q, want %q and 1min", c.url, stmt, idle, c.want)
		}
	}
}
