//go:build linux

package daemon_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/daemon"
	"github.com/warden-dev/warden/internal/hookwire/settle"
	"github.com/warden-dev/warden/internal/store/keeper"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/task"
	"github.com/warden-dev/warden/internal/testenv"
)

// fakeClaude logs each start with its pid and waits for its release file.
const fakeClaude = `#!/bin/sh
echo "$WARDEN_TASK_ID $$" >> "$FAKE_LOG"
while [ ! -e "$FAKE_RELEASE/$WARDEN_TASK_ID" ]; do sleep 0.02; done
printf '{"type":"result","is_error":false,"result":"done %s"}\n' "$WARDEN_TASK_ID"
`

type home struct {
	t                       *testing.T
	dir, bin, lone, release string
	log                     string
	env                     []string
}

func newHome(t *testing.T) *home {
	t.Helper()
	bins := testenv.Binaries(t, "warden", "warden-helper")
	h := &home{t: t, dir: t.TempDir(), bin: bins, release: t.TempDir()}
	h.log = filepath.Join(h.dir, "claude.log")
	claude := filepath.Join(h.dir, "claude")
	if err := os.WriteFile(claude, []byte(fakeClaude), 0o755); err != nil {
		t.Fatal(err)
	}
	// The headless runner: this test is about the daemon, its fake claude
	// a script (the tmux runner has its own tests in internal/agent).
	cfg := fmt.Sprintf("[serve]\nmax_agents = 2\nclaude_command = %q\n\n[agent]\nrunner = \"claude-p\"\n", claude)
	if err := os.WriteFile(filepath.Join(h.dir, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	// A front alone in its directory: a hook it hands to no one fails
	// open ("warden-core is missing"), so a recorded event proves the
	// resident process answered it.
	h.lone = testenv.Alone(t, filepath.Join(bins, "warden"))
	h.env = append(testenv.EnvWithout("WARDEN_", "CLAUDE_PROJECT_DIR"), "WARDEN_HOME="+h.dir, "FAKE_LOG="+h.log, "FAKE_RELEASE="+h.release)
	t.Cleanup(func() { keeper.Stop(filepath.Join(h.dir, "locks", "keeper.lock"), 10*time.Second) })
	// Agents outlive a daemon by design (the next one re-adopts them): a
	// test that ends with one still waiting for its release must end it,
	// or it writes into the home while the home is removed.
	t.Cleanup(func() {
		for _, pids := range h.starts() {
			for _, pid := range pids {
				// Only if the pid is still this test's fake claude, not a
				// process that got the number since.
				if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil && strings.Contains(string(b), claude) {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
		}
	})
	return h
}

// serve starts `warden serve` (front → warden-core → warden-helper, one
// pid) and waits until its API answers.
func (h *home) serve() *exec.Cmd {
	h.t.Helper()
	cmd := exec.Command(filepath.Join(h.bin, "warden"), "serve", "--addr", "127.0.0.1:0")
	cmd.Env = h.env
	out, _ := os.Create(filepath.Join(h.dir, "serve.out"))
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	h.waitFor("the daemon's API", func() bool {
		st, err := daemon.ReadState(filepath.Join(h.dir, "run", "serve.json"))
		if err != nil || st.PID != cmd.Process.Pid {
			return false
		}
		resp, err := http.Get(st.URL + "/health")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	})
	return cmd
}

func (h *home) waitFor(what string, cond func() bool) {
	h.t.Helper()
	testenv.WaitFor(h.t, 60*time.Second, what, cond, func() string {
		out, _ := os.ReadFile(filepath.Join(h.dir, "serve.out"))
		lg, _ := os.ReadFile(filepath.Join(h.dir, "logs", "daemon.log"))
		return fmt.Sprintf("serve output:\n%s\nlog:\n%s", out, lg)
	})
}

func (h *home) warden(args ...string) (string, int) {
	h.t.Helper()
	cmd := exec.Command(filepath.Join(h.bin, "warden"), args...)
	cmd.Env = h.env
	return testenv.RunCombined(h.t, cmd)
}

func (h *home) hook(front, session string) string {
	h.t.Helper()
	cmd := exec.Command(front, "hook", "--harness", "claude")
	cmd.Env = h.env
	cmd.Dir = h.dir
	cmd.Stdin = strings.NewReader(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"u1","tool_input":{"command":"ls"}}`, session, h.dir))
	out, _ := cmd.CombinedOutput()
	return string(out)
}

func (h *home) events(session string) int {
	h.t.Helper()
	settle.Wait(h.dir, 10*time.Second) // the hook server records after it answers
	st, err := sqlite.Open(context.Background(), filepath.Join(h.dir, "warden.db"))
	if err != nil {
		h.t.Fatal(err)
	}
	defer st.Close()
	evs, err := st.EventsPage(context.Background(), 0, session, time.Time{}, 1000)
	if err != nil {
		h.t.Fatal(err)
	}
	return len(evs)
}

func (h *home) tasks() map[string]task.Task {
	h.t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(h.dir, "warden.db"))
	if err != nil {
		h.t.Fatal(err)
	}
	defer st.Close()
	ts, err := st.Tasks(context.Background(), task.Filter{})
	if err != nil {
		h.t.Fatal(err)
	}
	m := map[string]task.Task{}
	for _, t := range ts {
		m[t.ID] = t
	}
	return m
}

// starts reads the fake claude's log: task id → pids of its runs.
func (h *home) starts() map[string][]int {
	f, err := os.Open(h.log)
	if err != nil {
		return nil
	}
	defer f.Close()
	m := map[string][]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		id, pid, _ := strings.Cut(sc.Text(), " ")
		n, _ := strconv.Atoi(pid)
		m[id] = append(m[id], n)
	}
	return m
}

// The daemon takes over from an on-demand keeper and answers hooks; a
// kill -9 while two agents run loses no task and duplicates none: the
// agents die with it, the restarted daemon queues their tasks again and
// runs everything to done; `warden task show` tells it. SIGTERM stops it
// cleanly, the CLI then says it is not running (exit 3), and the next hook
// brings the on-demand keeper back.
func TestDaemonSurvivesKill9AndHandsBackToTheKeeper(t *testing.T) {
	h := newHome(t)
	lock := filepath.Join(h.dir, "locks", "keeper.lock")
	// A hook through the full front starts the on-demand keeper.
	h.hook(filepath.Join(h.bin, "warden"), "s0")
	h.waitFor("the on-demand keeper", func() bool { ok, _ := keeper.Running(lock); return ok })

	d := h.serve()
	if ok, _ := keeper.Running(lock); !ok {
		t.Fatal("the daemon does not hold the keeper lock")
	}
	if out := h.hook(h.lone, "s1"); out != "" || h.events("s1") != 1 {
		t.Fatalf("a hook through the daemon: output %q, %d events recorded", out, h.events("s1"))
	}

	var ids []string
	for i := 0; i < 5; i++ {
		out, code := h.warden("task", "add", "-C", h.dir, "--key", fmt.Sprintf("k%d", i), fmt.Sprintf("job %d", i))
		if code != 0 {
			t.Fatalf("task add: %d %s", code, out)
		}
		ids = append(ids, strings.Fields(out)[0])
	}
	// A retried add with the same key is the same task.
	if out, _ := h.warden("task", "add", "-C", h.dir, "--key", "k0", "job 0"); strings.Fields(out)[0] != ids[0] {
		t.Fatalf("retry made another task: %s", out)
	}
	h.waitFor("two agents running", func() bool { return len(h.starts()) == 2 })
	first := h.starts()

	// kill -9: the agents die with the daemon (no orphans).
	d.Process.Signal(syscall.SIGKILL)
	d.Wait()
	for id, pids := range first {
		h.waitFor("agent of "+id+" gone", func() bool { return syscall.Kill(pids[0], 0) != nil })
	}
	for id := range first {
		if st := h.tasks()[id].Status; st != task.Running {
			t.Fatalf("before restart %s is %s, want running (what the dead daemon left)", id, st)
		}
	}

	d2 := h.serve()
	for _, id := range ids {
		os.WriteFile(filepath.Join(h.release, id), nil, 0o644)
	}
	h.waitFor("all tasks done", func() bool {
		ts := h.tasks()
		for _, id := range ids {
			if ts[id].Status != task.Done {
				return false
			}
		}
		return true
	})
	ts := h.tasks()
	if len(ts) != 5 {
		t.Errorf("%d tasks in the store, want 5", len(ts))
	}
	starts := h.starts()
	for _, id := range ids {
		want := 1
		if first[id] != nil {
			want = 2
		}
		if len(starts[id]) != want || ts[id].Attempts != want || ts[id].Result != "done "+id {
			t.Errorf("%s: started %d times, %d attempts, result %q; want %d", id, len(starts[id]), ts[id].Attempts, ts[id].Result, want)
		}
	}
	var killed string
	for id := range first {
		killed = id
	}
	out, code := h.warden("task", "show", killed)
	for _, w := range []string{"task " + killed + ": DONE", "daemon restarted while the task was running (attempt 1 of 3); its agent is gone: queued again", "scheduler start:", "running   → done"} {
		if code != 0 || !strings.Contains(out, w) {
			t.Errorf("task show lacks %q (exit %d):\n%s", w, code, out)
		}
	}
	out, code = h.warden("serve", "status", "--json")
	var st struct {
		Systems []struct {
			Tasks map[string]int `json:"tasks"`
		} `json:"systems"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil || st.Systems[0].Tasks["done"] != 5 {
		t.Errorf("serve status: %d %s", code, out)
	}

	// SIGTERM: a clean stop; the CLI says so; the keeper comes back.
	if daemonPID(t, h) != d2.Process.Pid {
		t.Fatal("serve.json names another pid")
	}
	d2.Process.Signal(syscall.SIGTERM)
	exited := make(chan error, 1)
	go func() { exited <- d2.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("the daemon exited with %v after SIGTERM", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the daemon did not stop on SIGTERM")
	}
	if _, err := os.Stat(filepath.Join(h.dir, "run", "serve.json")); !os.IsNotExist(err) {
		t.Errorf("serve.json left behind: %v", err)
	}
	out, code = h.warden("task", "list")
	if code != daemon.ExitNotRunning || !strings.Contains(out, "the warden daemon is not running; start it with `warden serve`") || strings.Count(out, "\n") != 1 {
		t.Errorf("task list without a daemon: exit %d\n%s", code, out)
	}
	os.Remove(filepath.Join(h.dir, "locks", "keeper.started")) // the respawn limit would wait 30 s
	h.hook(filepath.Join(h.bin, "warden"), "s2")
	h.waitFor("the on-demand keeper back", func() bool { ok, _ := keeper.Running(lock); return ok })
	// It holds the lock before its socket listens: wait for an answer.
	h.waitFor("the keeper answering hooks", func() bool { return h.hook(h.lone, "s3") == "" })
	if n := h.events("s3"); n != 1 {
		t.Errorf("the keeper recorded %d events for s3", n)
	}
	lg, _ := os.ReadFile(filepath.Join(h.dir, "logs", "daemon.log"))
	for _, w := range []string{`"msg":"stopping the on-demand keeper to take the store over"`, `"msg":"daemon stopped"`, `"action":"requeue"`} {
		if !strings.Contains(string(lg), w) {
			t.Errorf("daemon log lacks %s", w)
		}
	}
}

func daemonPID(t *testing.T, h *home) int {
	st, err := daemon.ReadState(filepath.Join(h.dir, "run", "serve.json"))
	if err != nil {
		t.Fatal(err)
	}
	return st.PID
}
