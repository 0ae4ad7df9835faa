//go:build linux

package daemon_test

import (
	"bufio"
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
	"github.com/warden-dev/warden/internal/task"
)

// leavingClaude is fakeClaude that also starts a tool of its own (a
// sleep in its process group, as a shell or a test run would be) and
// logs that tool's pid: what outlives the agent when the daemon dies.
const leavingClaude = `#!/bin/sh
echo "$WARDEN_TASK_ID $$" >> "$FAKE_LOG"
sleep 600 &
echo "$!" >> "$FAKE_LOG.tools"
while [ ! -e "$FAKE_RELEASE/$WARDEN_TASK_ID" ]; do sleep 0.02; done
kill $! 2>/dev/null
printf '{"type":"result","is_error":false,"result":"done %s"}\n' "$WARDEN_TASK_ID"
`

// alive reports whether pid runs (a zombie waiting for a parent that
// does not reap is not running).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && len(s) > i+2 && s[i+2] != 'Z'
}

// tools are the pids of the tools the agents started, oldest first.
func (h *home) tools() []int {
	f, err := os.Open(h.log + ".tools")
	if err != nil {
		return nil
	}
	defer f.Close()
	var pids []int
	for sc := bufio.NewScanner(f); sc.Scan(); {
		if pid, err := strconv.Atoi(strings.TrimSpace(sc.Text())); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// stopWithTERM sends SIGTERM and waits for d to exit; the error is its
// exit status (nil: 0).
func stopWithTERM(t *testing.T, d *exec.Cmd) error {
	t.Helper()
	d.Process.Signal(syscall.SIGTERM)
	exited := make(chan error, 1)
	go func() { exited <- d.Wait() }()
	select {
	case err := <-exited:
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("the daemon did not stop on SIGTERM")
		return nil
	}
}

// Restarts are not lost agents. A task whose headless agent runs while
// the daemon gets SIGTERM four times (more than serve.max_attempts) is
// handed back each time, its attempt not counted, and the daemon exits 0
// at once even with the dashboard's live stream open. After a kill -9,
// the tool the agent started outlives both (the agent itself dies with
// the daemon) until the next start ends it, and the task runs to done.
func TestRestartsHandBackTasksAndEndLeftovers(t *testing.T) {
	h := newHome(t)
	if err := os.WriteFile(filepath.Join(h.dir, "claude"), []byte(leavingClaude), 0o755); err != nil {
		t.Fatal(err)
	}
	d := h.serve()
	out, code := h.warden("task", "add", "-C", h.dir, "keep working")
	if code != 0 {
		t.Fatalf("task add: %d %s", code, out)
	}
	id := strings.Fields(out)[0]
	for i := 1; i <= 4; i++ {
		h.waitFor("agent start "+strconv.Itoa(i)+" and its tool", func() bool { return len(h.starts()[id]) == i && len(h.tools()) == i })
		if i == 2 {
			// A live view open in a browser.
			st, _ := daemon.ReadState(filepath.Join(h.dir, "run", "serve.json"))
			tok, _ := os.ReadFile(filepath.Join(h.dir, "run", "cli.token"))
			req, _ := http.NewRequest("GET", st.URL+"/live/stream", nil)
			req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(tok)))
			resp, err := http.DefaultClient.Do(req)
			if err != nil || resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
				t.Fatalf("live stream: %v %v", resp, err)
			}
			defer resp.Body.Close()
		}
		if err := stopWithTERM(t, d); err != nil {
			t.Fatalf("SIGTERM %d: the daemon exited with %v", i, err)
		}
		tk := h.tasks()[id]
		if tk.Status != task.Queued || tk.Attempts != 0 {
			t.Fatalf("after SIGTERM %d the task is %s with %d attempts; want queued, none counted", i, tk.Status, tk.Attempts)
		}
		d = h.serve()
	}
	h.waitFor("agent start 5", func() bool { return len(h.starts()[id]) == 5 })
	// the fifth agent's own tool: an agent logs its start before its tool,
	// so the newest line alone may still be the fourth's (killed with it)
	h.waitFor("its tool logged", func() bool { return len(h.tools()) == 5 })
	tool := h.tools()[4]
	agentPID := h.starts()[id][4]

	d.Process.Signal(syscall.SIGKILL)
	d.Wait()
	h.waitFor("the agent dead with the daemon", func() bool { return !alive(agentPID) })
	if !alive(tool) {
		t.Fatalf("the agent's tool (pid %d) died with the daemon: nothing left to find", tool)
	}
	h.serve()
	h.waitFor("the leftover tool ended by the next start", func() bool { return !alive(tool) })
	h.waitFor("agent start 6", func() bool { return len(h.starts()[id]) == 6 })
	os.WriteFile(filepath.Join(h.release, id), nil, 0o644)
	h.waitFor("the task done", func() bool { return h.tasks()[id].Status == task.Done })
	if tk := h.tasks()[id]; tk.Attempts != 2 {
		t.Errorf("%d attempts; want 2 (the run before the kill -9 and the one after; the SIGTERMs count none)", tk.Attempts)
	}
	show, _ := h.warden("task", "show", id)
	for _, w := range []string{"the daemon stopped cleanly and stopped the agent with it: queued again, the attempt not counted", "daemon restarted while the task was running (attempt 1 of 3)"} {
		if !strings.Contains(show, w) {
			t.Errorf("task show lacks %q:\n%s", w, show)
		}
	}
}

// serve.json removed while the daemon runs: a second `warden serve`
// refuses, naming the running daemon (it used to take it for an
// on-demand keeper and stop it), and the daemon writes the file again.
func TestServeJSONRemovedWhileRunning(t *testing.T) {
	h := newHome(t)
	d := h.serve()
	state := filepath.Join(h.dir, "run", "serve.json")
	if err := os.Remove(state); err != nil {
		t.Fatal(err)
	}
	second := exec.Command(filepath.Join(h.bin, "warden"), "serve", "--addr", "127.0.0.1:0")
	second.Env = h.env
	b, err := second.CombinedOutput()
	if err == nil || !strings.Contains(string(b), "warden serve already runs (pid "+strconv.Itoa(d.Process.Pid)) {
		t.Errorf("a second serve: %v\n%s", err, b)
	}
	h.waitFor("serve.json written again", func() bool {
		st, err := daemon.ReadState(state)
		return err == nil && st.PID == d.Process.Pid
	})
	if out, code := h.warden("task", "list"); code != 0 {
		t.Errorf("the CLI does not find the daemon: exit %d %s", code, out)
	}
	if err := stopWithTERM(t, d); err != nil {
		t.Errorf("the first daemon exited with %v", err)
	}
}
