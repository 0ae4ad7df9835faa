//go:build linux

package daemon_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/warden-dev/warden/internal/daemon"
	"github.com/warden-dev/warden/internal/task"
)

// waitingAgent stands in for claude in a task's tmux window: it logs its
// start, works until released, commits and ends.
const waitingAgent = `#!/bin/sh
echo "$WARDEN_TASK_ID $$" >> "$FAKE_LOG"
while [ ! -e "$FAKE_RELEASE/$WARDEN_TASK_ID" ]; do sleep 0.05; done
echo "work of $WARDEN_TASK_ID" > work.txt
git add work.txt && git -c user.email=a@b -c user.name=agent commit -qm work
`

// A real tmux agent outlives its daemon: after a kill -9 of the daemon
// the next start finds it still working and watches it again (no new
// claim, no second start); after a SIGTERM likewise. Released, it ends
// and the task is done after one attempt.
func TestTmuxAgentReadoptedAfterKill9AndSIGTERM(t *testing.T) {
	h, project, _ := tmuxDaemon(t, waitingAgent, "")
	out, code := h.warden("task", "add", "-C", project, "work until released")
	if code != 0 {
		t.Fatalf("task add: %d %s", code, out)
	}
	id := strings.Fields(out)[0]
	h.waitFor("the agent started", func() bool { return len(h.starts()[id]) == 1 })
	agentPID := h.starts()[id][0]

	st, err := daemon.ReadState(filepath.Join(h.dir, "run", "serve.json"))
	if err != nil {
		t.Fatal(err)
	}
	syscall.Kill(st.PID, syscall.SIGKILL)
	h.waitFor("the daemon gone", func() bool { return !alive(st.PID) })
	if !alive(agentPID) {
		t.Fatal("the tmux agent died with the daemon")
	}
	d := h.serve()
	h.waitFor("the agent re-adopted", func() bool {
		show, _ := h.warden("task", "show", id)
		return strings.Contains(show, "daemon restarted; the agent") && strings.Contains(show, "is still working: watching it again")
	})
	if err := stopWithTERM(t, d); err != nil {
		t.Fatalf("SIGTERM: exit %v", err)
	}
	if !alive(agentPID) {
		t.Fatal("the tmux agent died with a clean stop")
	}
	if tk := h.tasks()[id]; tk.Status != task.Running {
		t.Fatalf("after SIGTERM the task is %s; want running (its agent works on)", tk.Status)
	}
	h.serve()
	os.WriteFile(filepath.Join(h.release, id), nil, 0o644)
	h.waitFor("the task done", func() bool { return h.tasks()[id].Status.Final() })
	tk := h.tasks()[id]
	if tk.Status != task.Done || tk.Attempts != 1 || len(h.starts()[id]) != 1 {
		t.Errorf("task %s %q after %d attempts, agent started %d times; want done, 1, once", tk.Status, tk.Error, tk.Attempts, len(h.starts()[id]))
	}
	if show, _ := h.warden("task", "show", id); strings.Count(show, "still working: watching it again") != 2 {
		t.Errorf("want two re-adoptions in the story:\n%s", show)
	}
}
