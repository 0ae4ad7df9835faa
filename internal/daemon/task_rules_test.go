//go:build linux

package daemon_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/task"
	"github.com/warden-dev/warden/internal/testenv"
)

// ruleAgent stands in for claude in a task's tmux window: each step asks
// the real `warden hook` (PreToolUse, with the task id from its
// environment) before running the command, runs it only when not denied,
// and logs "<task> ran|denied <cmd>: <reason>".
const ruleAgent = `#!/bin/sh
sid="agent-$WARDEN_TASK_ID"
hook() {
  printf '{"session_id":"%s","cwd":"%s","hook_event_name":"%s"%s}' "$sid" "$PWD" "$1" "$2" |
    "$WARDEN_BIN" hook --harness claude 2>>"$FAKE_LOG.err"
}
try() {
  out=$(hook PreToolUse ",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"$1\"}")
  if printf '%s' "$out" | grep -q '"permissionDecision":"deny"'; then
    echo "$WARDEN_TASK_ID denied $1: $(printf '%s' "$out" | tr -d '\n' | cut -c1-400)" >> "$FAKE_LOG"
    return
  fi
  sh -c "$1" >>"$FAKE_LOG.err" 2>&1 && echo "$WARDEN_TASK_ID ran $1" >> "$FAKE_LOG"
}
hook SessionStart ',"source":"startup"'
echo "work of $WARDEN_TASK_ID" > work.txt
try "git add work.txt && git -c user.email=a@b -c user.name=agent commit -qm work"
try "git push -q origin warden/$WARDEN_TASK_ID"
hook Stop ''
hook SessionEnd ',"reason":"other"'
`

// Per-task criteria and operations end to end: tasks queued with `warden
// task add --done-when/--allow/--deny`, run by `warden serve` with the
// tmux runner (real tmux, real git worktrees) and an agent whose every
// command goes through the real hook. The task allowed to push pushes;
// the one next to it is denied; a task denying commit has nothing
// committed; a task whose criterion fails is not done. `warden task show`
// shows each task's rules.
func TestTaskRulesEndToEnd(t *testing.T) {
	h, project, remote := tmuxDaemon(t, ruleAgent, "")

	add := func(args ...string) string {
		t.Helper()
		out, code := h.warden(append([]string{"task", "add", "--json", "-C", project}, args...)...)
		var tk task.Task
		if code != 0 || json.Unmarshal([]byte(out), &tk) != nil {
			t.Fatalf("task add %v: exit %d: %s", args, code, out)
		}
		return tk.ID
	}
	pusher := add("--allow", "push", "push your branch")
	plain := add("push your branch")
	noCommit := add("--deny", "commit", "push your branch")
	unmet := add("--done-when", "run:test -f DONE.txt", "--done-when", "clean", "push your branch")

	// Bad rules are refused before anything is queued.
	if out, code := h.warden("task", "add", "-C", project, "--allow", "force-push", "x"); code == 0 || !strings.Contains(out, `allow "force-push" is not an operation`) {
		t.Errorf("an unknown operation: exit %d: %s", code, out)
	}

	ids := []string{pusher, plain, noCommit, unmet}
	h.waitFor("every task to end", func() bool {
		ts := h.tasks()
		for _, id := range ids {
			if !ts[id].Status.Final() {
				return false
			}
		}
		return true
	})
	ts := h.tasks()
	log, _ := os.ReadFile(h.log)
	t.Logf("agent log:\n%s", log)
	ran := func(id, what string) bool { return strings.Contains(string(log), id+" ran "+what) }
	denied := func(id, what string) bool { return strings.Contains(string(log), id+" denied "+what) }

	if ts[pusher].Status != task.Done || !ran(pusher, "git push") {
		t.Errorf("the task allowed to push: %s %q, pushed=%v", ts[pusher].Status, ts[pusher].Error, ran(pusher, "git push"))
	}
	if !denied(plain, "git push") || !strings.Contains(string(log), `allow it for the task with allow = [\"push\"]`) {
		t.Errorf("the task next to it was not denied its push")
	}
	if ts[plain].Status != task.Done {
		t.Errorf("the task denied its push: %s %q, want done (it committed)", ts[plain].Status, ts[plain].Error)
	}
	heads := testenv.Git(t, remote, "for-each-ref", "--format=%(refname)", "refs/heads/")
	if !strings.Contains(heads, "warden/"+pusher) || strings.Contains(heads, "warden/"+plain) {
		t.Errorf("remote branches %q: want warden/%s and not warden/%s", heads, pusher, plain)
	}
	if !denied(noCommit, "git add work.txt") || ts[noCommit].Status != task.Failed || !strings.Contains(ts[noCommit].Error, "committed: no commit on the branch") {
		t.Errorf("the task denying commit: denied=%v, %s %q", denied(noCommit, "git add"), ts[noCommit].Status, ts[noCommit].Error)
	}
	if ts[unmet].Status != task.Failed || !strings.Contains(ts[unmet].Error, "criteria not met: run: test -f DONE.txt") {
		t.Errorf("the task whose criterion fails: %s %q", ts[unmet].Status, ts[unmet].Error)
	}

	show, _ := h.warden("task", "show", unmet)
	for _, want := range []string{"done when: run:test -f DONE.txt; clean", "criteria: committed, run:test -f DONE.txt, clean", "FAILED"} {
		if !strings.Contains(show, want) {
			t.Errorf("task show %s lacks %q:\n%s", unmet, want, show)
		}
	}
	if show, _ := h.warden("task", "show", pusher); !strings.Contains(show, "operations: allow push   deny -") {
		t.Errorf("task show %s:\n%s", pusher, show)
	}
	if show, _ := h.warden("task", "show", noCommit); !strings.Contains(show, "operations: allow -   deny commit") {
		t.Errorf("task show %s:\n%s", noCommit, show)
	}
}

// tmuxDaemon runs `warden serve` with the tmux runner on a private tmux
// server, agent the agent's script, extra more [agent] settings; it
// returns the home, a git project and the bare repository that is its
// origin.
func tmuxDaemon(t *testing.T, agent, extra string) (h *home, project, remote string) {
	t.Helper()
	tmux := testenv.RequireCommand(t, "tmux", "tmux")
	h = newHome(t)
	project = testenv.GitRepo(t, "README.md", "hello\n")
	remote = t.TempDir()
	testenv.Git(t, remote, "init", "-q", "--bare")
	testenv.Git(t, project, "remote", "add", "origin", remote)

	sockDir, err := os.MkdirTemp("", "wr") // unix socket paths are short
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(sockDir, "s")
	t.Cleanup(func() {
		exec.Command(tmux, "-S", sock, "kill-server").Run()
		os.RemoveAll(sockDir)
	})
	agentBin := filepath.Join(h.dir, "agent")
	if err := os.WriteFile(agentBin, []byte(agent), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`[tempo]
enabled = false

[serve]
max_agents = 4

[agent]
runner = "tmux"
mode = "headless"
claude = %q
tmux_socket = %q
criteria = ["committed"]
idle_timeout = 60
%s`, agentBin, sock, extra)
	if err := os.WriteFile(filepath.Join(h.dir, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	h.env = append(h.env, "WARDEN_BIN="+filepath.Join(h.bin, "warden"), "HOME="+t.TempDir())
	h.serve()
	return h, project, remote
}
