//go:build linux

package daemon_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/warden-dev/warden/internal/daemon"
	"github.com/warden-dev/warden/internal/testenv"
)

// A URL that is no PostgreSQL URL can never work: warden serve says so in
// one line naming the keys and the fix, exits 1, and leaves nothing
// running.
func TestServeRefusesABadDatabaseURL(t *testing.T) {
	h := newHome(t)
	cmd := exec.Command(filepath.Join(h.bin, "warden"), "serve", "--addr", "127.0.0.1:0")
	cmd.Env = append(h.env, "WARDEN_DATABASE_URL=postgres://u@host:notaport/db")
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 {
		t.Fatalf("serve with a bad URL: %v; want exit 1\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "WARDEN_DATABASE_URL") || !strings.Contains(lines[0], "postgres://USER:PASSWORD@HOST:5432/DATABASE") {
		t.Errorf("want one line naming WARDEN_DATABASE_URL and the fix; got:\n%s", out)
	}
	if _, err := daemon.ReadState(filepath.Join(h.dir, "run", "serve.json")); err == nil {
		t.Error("a daemon state file was left behind")
	}
}

// A database that does not exist (yet): warden serve prints one line,
// keeps answering hooks on the local store, and starts the scheduler and
// the API as soon as the database is there; /health/db then reports the
// local and the shared store.
func TestServeWaitsForTheSharedStoreWhileHooksWork(t *testing.T) {
	h := newHome(t)
	admin := testenv.Postgres(t) // a database on the suite's server to connect through
	pu, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	name := "warden_later_" + strconv.Itoa(os.Getpid())
	pu.Path = "/" + name
	u := pu.String()
	cmd := exec.Command(filepath.Join(h.bin, "warden"), "serve", "--addr", "127.0.0.1:0")
	cmd.Env = append(h.env, "WARDEN_DATABASE_URL="+u)
	outPath := filepath.Join(h.dir, "serve.out")
	out, _ := os.Create(outPath)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	h.waitFor("the line about the missing database", func() bool {
		b, _ := os.ReadFile(outPath)
		return strings.Contains(string(b), "warden serve: shared store:") && strings.Contains(string(b), "hooks keep working on the local store")
	})
	// Hooks are answered by the daemon meanwhile (the lone front runs
	// nothing itself: a recorded event proves the daemon answered).
	h.waitFor("a hook answered while the shared store is down", func() bool {
		return h.hook(h.lone, "s-down") == "" && h.events("s-down") == 1
	})
	if _, err := daemon.ReadState(filepath.Join(h.dir, "run", "serve.json")); err == nil {
		t.Fatal("the API runs without its shared store")
	}

	c, err := pgx.Connect(context.Background(), admin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(context.Background(), "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		c.Close(context.Background())
	})
	var st *daemon.State
	h.waitFor("the API once the database exists", func() bool {
		st, err = daemon.ReadState(filepath.Join(h.dir, "run", "serve.json"))
		return err == nil && st.PID == cmd.Process.Pid
	})
	tok, err := os.ReadFile(filepath.Join(h.dir, "run", "cli.token"))
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", st.URL+"/health/db", nil)
	req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(tok)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"local":{"status":"ok"`) || !strings.Contains(string(body), `"shared":{"status":"ok"`) {
		t.Errorf("/health/db = %d %s; want both stores ok", resp.StatusCode, body)
	}
	syscall.Kill(cmd.Process.Pid, syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Errorf("SIGTERM: %v", err)
	}
}
