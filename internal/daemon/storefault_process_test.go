//go:build linux

package daemon_test

import (
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/warden-dev/warden/internal/daemon"
	"github.com/warden-dev/warden/internal/task"
	"github.com/warden-dev/warden/internal/testenv"
)

// serveLogged starts `warden serve --log-stderr` with its output in a pipe
// (out), which a file-size limit does not reach, and waits for its API.
func (h *home) serveLogged(out io.Writer) *exec.Cmd {
	h.t.Helper()
	cmd := exec.Command(filepath.Join(h.bin, "warden"), "serve", "--addr", "127.0.0.1:0", "--log-stderr")
	cmd.Env = h.env
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	h.waitFor("the daemon's API", func() bool {
		st, err := daemon.ReadState(filepath.Join(h.dir, "run", "serve.json"))
		return err == nil && st.PID == cmd.Process.Pid
	})
	return cmd
}

// get asks the daemon's API with the CLI's token.
func (h *home) get(path string) (int, string) {
	h.t.Helper()
	st, err := daemon.ReadState(filepath.Join(h.dir, "run", "serve.json"))
	if err != nil {
		h.t.Fatal(err)
	}
	tok, _ := os.ReadFile(filepath.Join(h.dir, "run", "cli.token"))
	req, _ := http.NewRequest("GET", st.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(tok)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// A full disk under a running daemon, for real: its file-size limit
// (RLIMIT_FSIZE, set from outside with prlimit) makes every SQLite write
// past the first byte of a file fail. The daemon stops taking work and
// says why — a new task gets 503 naming the store and the fix, no task is
// claimed, /health/db is down, `warden serve status` says it, the log
// line reaches stderr though the log file refuses it — while the agent
// already running is left alone. With space back, a restart takes work
// again.
func TestFullDiskStopsTheDaemonTakingWork(t *testing.T) {
	h := newHome(t)
	cfg := filepath.Join(h.dir, "config.toml")
	b, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, []byte(strings.Replace(string(b), "max_agents = 2", "max_agents = 1", 1)), 0o600)
	var out testenv.Buffer
	d := h.serveLogged(&out)
	db := filepath.Join(h.dir, "warden.db")

	add := func(prompt string) (string, int) {
		return h.warden("task", "add", "-C", h.dir, prompt)
	}
	o, code := add("job a")
	if code != 0 {
		t.Fatalf("task add: %d %s", code, o)
	}
	a := strings.Fields(o)[0]
	h.waitFor("a's agent", func() bool { return len(h.starts()[a]) == 1 })

	var was unix.Rlimit
	pid := d.Process.Pid
	if err := unix.Prlimit(pid, unix.RLIMIT_FSIZE, nil, &was); err != nil {
		t.Fatal(err)
	}
	if err := unix.Prlimit(pid, unix.RLIMIT_FSIZE, &unix.Rlimit{Cur: 1, Max: was.Max}, nil); err != nil {
		t.Fatal(err)
	}

	o, code = add("job b")
	if code == 0 || !strings.Contains(o, "store_unavailable") && !strings.Contains(o, "cannot take writes") || !strings.Contains(o, db) {
		t.Errorf("task add on a full disk: exit %d\n%s", code, o)
	}
	status, body := h.get("/health/db")
	if status != http.StatusServiceUnavailable || !strings.Contains(body, `"writes"`) || !strings.Contains(body, db) || !strings.Contains(body, "free space") {
		t.Errorf("/health/db on a full disk: %d %s", status, body)
	}
	if status, body := h.get("/health"); !strings.Contains(body, `"degraded"`) || !strings.Contains(body, "store_fault") {
		t.Errorf("/health on a full disk: %d %s", status, body)
	}
	o, code = h.warden("serve", "status")
	if code != 0 || !strings.Contains(o, "STORE FAULT") || !strings.Contains(o, db) {
		t.Errorf("serve status on a full disk: exit %d\n%s", code, o)
	}
	h.waitFor("the log line on stderr", func() bool { return strings.Contains(out.String(), "the store cannot take writes: taking no new work") })
	if n := len(h.starts()[a]); n != 1 {
		t.Errorf("a's agent started %d times", n)
	}

	// Space back; a clean stop hands a's agent back; the next start runs
	// it and takes new tasks.
	if err := unix.Prlimit(pid, unix.RLIMIT_FSIZE, &was, nil); err != nil {
		t.Fatal(err)
	}
	d.Process.Signal(syscall.SIGTERM)
	d.Wait()
	h.serve()
	o, code = add("job c")
	if code != 0 {
		t.Fatalf("task add after the restart: %d %s", code, o)
	}
	c := strings.Fields(o)[0]
	for _, id := range []string{a, c} {
		os.WriteFile(filepath.Join(h.release, id), nil, 0o644)
	}
	h.waitFor("a and c done", func() bool {
		ts := h.tasks()
		return ts[a].Status == task.Done && ts[c].Status == task.Done
	})
	if ts := h.tasks(); len(ts) != 2 {
		t.Errorf("%d tasks in the store, want 2 (b was refused)", len(ts))
	}
}
