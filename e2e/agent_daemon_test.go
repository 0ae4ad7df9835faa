package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/testenv"
)

// daemon is a `warden serve` child of the test.
type daemon struct {
	cmd  *exec.Cmd
	bin  string // the installed warden
	w    *agentWorld
	logs *strings.Builder
}

// startDaemon writes the agent config (Claude Code in bypassPermissions
// mode) and runs `warden serve` until the test ends.
func startDaemon(t *testing.T, w *agentWorld, extraConfig string) *daemon {
	t.Helper()
	return startDaemonMode(t, w, "bypassPermissions", extraConfig)
}

// startDaemonMode is startDaemon with agent.permission_mode set to
// permissionMode ("": the key is left out, Claude Code's default mode).
func startDaemonMode(t *testing.T, w *agentWorld, permissionMode, extraConfig string) *daemon {
	t.Helper()
	pm := ""
	if permissionMode != "" {
		pm = fmt.Sprintf("permission_mode = %q\n", permissionMode)
	}
	return startDaemonAgent(t, w, fmt.Sprintf("mode = \"interactive\"\nclaude = %q\n%s%s", w.Claude, pm, extraConfig))
}

// startDaemonAgent runs `warden serve` with agentConfig as the [agent]
// table's keys beyond runner, tmux socket, criteria and idle timeout.
func startDaemonAgent(t *testing.T, w *agentWorld, agentConfig string) *daemon {
	t.Helper()
	if !strings.Contains(agentConfig, "idle_timeout") {
		agentConfig += "\nidle_timeout = 120"
	}
	cfg := fmt.Sprintf(`[tempo]
enabled = false

[serve]
addr = "127.0.0.1:0"

[agent]
runner = "tmux"
tmux_socket = %q
criteria = ["committed", "clean"]
%s
`, w.Tmux.Socket, agentConfig)
	if err := os.WriteFile(filepath.Join(w.WardenHome, "config.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	d := &daemon{bin: filepath.Join(w.WardenHome, "bin", "warden"), w: w, logs: &strings.Builder{}}
	d.cmd = exec.Command(d.bin, "serve", "--log-stderr")
	d.cmd.Dir, d.cmd.Env = w.Project, w.Env
	d.cmd.Stderr = d.logs
	out, err := d.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		d.cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { d.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			d.cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("daemon log:\n%s", testenv.Tail([]byte(d.logs.String()), 6000))
		}
	})
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "listening on") {
				ready <- sc.Text()
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		t.Fatalf("warden serve did not start:\n%s", d.logs)
	}
	return d
}

func (d *daemon) warden(t *testing.T, args ...string) string {
	t.Helper()
	out, err := runBin(d.bin, d.w.Env, d.w.Project, args...)
	if err != nil {
		t.Fatalf("warden %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// taskJSON is what `warden task show --json` prints, in part.
type taskJSON struct {
	Task struct {
		ID         string `json:"id"`
		Status     string `json:"status"`
		AgentState string `json:"agent_state"`
		Error      string `json:"error"`
		Result     string `json:"result"`
	} `json:"task"`
	AgentStory *struct {
		Agent struct {
			Worktree, Branch, State, Archive string
		} `json:"agent"`
		History []struct{ State string } `json:"history"`
	} `json:"agent_story"`
}

func (d *daemon) waitTask(t *testing.T, id string, final func(status string) bool, timeout time.Duration) taskJSON {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		var tj taskJSON
		out := d.warden(t, "task", "show", id, "--json")
		if err := json.Unmarshal([]byte(out), &tj); err != nil {
			t.Fatalf("task show --json: %v\n%s", err, out)
		}
		if final(tj.Task.Status) {
			return tj
		}
		if time.Now().After(deadline) {
			pane, _ := d.w.Tmux.Capture(context.Background(), id, 60)
			t.Fatalf("task %s still %s (agent %s) after %v\n%s\npane:\n%s\nAPI:\n%s", id, tj.Task.Status, tj.Task.AgentState, timeout,
				d.warden(t, "task", "show", id), pane, d.w.API.Summary())
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// bashCommitScript: the model writes a file and commits it with Bash (the
// task id, and so the worktree's path, is the daemon's to choose).
func bashCommitScript() Script {
	return Script{Steps: []Step{
		{Tools: []ToolUse{{Name: "Bash", Input: map[string]any{"command": "printf 'hello from the agent\\n' > hello.txt"}}}},
		{Tools: []ToolUse{{Name: "Bash", Input: map[string]any{
			"command": "git add hello.txt && git -c user.name=agent -c user.email=agent@example.com commit -q -m 'add hello'"}}}},
		{Text: "Done: hello.txt is committed."},
	}, DoneText: "Done."}
}

// The whole path: `warden serve` takes a task from `warden task add`, runs
// the real Claude Code interactive in a tmux window of its worktree; the
// scripted model commits; the task is done from the agent's hook events
// alone; the branch has the commit; the worktree is removed; `warden task
// show` tells the story.
func TestDaemonRunsTaskInTmuxToDone(t *testing.T) {
	bin := testenv.Binaries(t, "warden", "warden-helper")
	w := newAgentWorldWith(t, filepath.Join(bin, "warden"), "", bashCommitScript())
	d := startDaemon(t, w, "")
	out := d.warden(t, "task", "add", "-C", w.Project, "--json", "Add hello.txt and commit it.")
	var added struct{ ID string }
	if err := json.Unmarshal([]byte(out), &added); err != nil || added.ID == "" {
		t.Fatalf("task add: %v\n%s", err, out)
	}
	tj := d.waitTask(t, added.ID, func(s string) bool { return s == "done" || s == "failed" || s == "cancelled" }, 120*time.Second)
	story := d.warden(t, "task", "show", added.ID)
	if tj.Task.Status != "done" || tj.Task.AgentState != "done" {
		t.Fatalf("task %s (agent %s): %s\n%s", tj.Task.Status, tj.Task.AgentState, tj.Task.Error, story)
	}
	branch := "warden/" + added.ID
	if msg := strings.TrimSpace(testenv.Git(t, w.Project, "log", "-1", "--format=%s", branch)); msg != "add hello" {
		t.Errorf("branch tip %q, want the agent's commit", msg)
	}
	if tj.AgentStory == nil {
		t.Fatalf("no agent story:\n%s", story)
	}
	if _, err := os.Stat(tj.AgentStory.Agent.Worktree); !os.IsNotExist(err) {
		t.Errorf("worktree %s still there (%v)", tj.AgentStory.Agent.Worktree, err)
	}
	var states []string
	for _, h := range tj.AgentStory.History {
		states = append(states, h.State)
	}
	if len(states) < 3 || states[0] != "spawning" || states[1] != "working" || states[len(states)-1] != "done" {
		t.Errorf("agent states %v", states)
	}
	for _, want := range []string{"states (from its hooks)", "branch:   " + branch, "1 commit(s), 1 file(s) changed, +1 -0", "worktree: removed", "usage:    1 session(s)"} {
		if !strings.Contains(story, want) {
			t.Errorf("task show lacks %q:\n%s", want, story)
		}
	}
	t.Logf("warden task show:\n%s", story)
	if ws, _ := w.Tmux.Windows(context.Background()); len(ws) != 0 {
		t.Errorf("tmux windows left: %+v", ws)
	}
}

// Crash: the agent's process is killed mid-task (the model is slow to
// answer). The task fails within the exit grace — well inside the idle
// timeout —, its uncommitted work is archived, its slot is free again.
func TestDaemonAgentKilledMidTask(t *testing.T) {
	bin := testenv.Binaries(t, "warden", "warden-helper")
	w := newAgentWorldWith(t, filepath.Join(bin, "warden"), "", Script{Steps: []Step{
		{Tools: []ToolUse{{Name: "Bash", Input: map[string]any{"command": "printf 'work in progress\\n' > wip.txt"}}}},
		{Text: "never seen", Delay: 90 * time.Second},
	}})
	d := startDaemon(t, w, "")
	out := d.warden(t, "task", "add", "-C", w.Project, "--json", "Start something.")
	var added struct{ ID string }
	if err := json.Unmarshal([]byte(out), &added); err != nil || added.ID == "" {
		t.Fatalf("task add: %v\n%s", err, out)
	}
	// Wait until the agent works and its file is written, then kill it.
	var pid int
	deadline := time.Now().Add(60 * time.Second)
	for pid == 0 {
		tj := d.waitTask(t, added.ID, func(string) bool { return true }, time.Minute)
		if tj.Task.AgentState == "working" && tj.AgentStory != nil {
			if _, err := os.Stat(filepath.Join(tj.AgentStory.Agent.Worktree, "wip.txt")); err == nil {
				if win, _ := w.Tmux.Window(context.Background(), added.ID); win != nil && !win.Dead {
					pid = win.PanePID
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the agent never got to work:\n%s", d.warden(t, "task", "show", added.ID))
		}
		time.Sleep(200 * time.Millisecond)
	}
	killed := time.Now()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	tj := d.waitTask(t, added.ID, func(s string) bool { return s == "done" || s == "failed" || s == "cancelled" }, 60*time.Second)
	took := time.Since(killed)
	if tj.Task.Status != "failed" || tj.Task.AgentState != "error" || !strings.Contains(tj.Task.Error, "agent process exited") {
		t.Fatalf("task %s, agent %s: %s", tj.Task.Status, tj.Task.AgentState, tj.Task.Error)
	}
	if took > 120*time.Second {
		t.Errorf("noticed after %v, more than the idle timeout", took)
	}
	if tj.AgentStory == nil || tj.AgentStory.Agent.Archive == "" {
		t.Fatalf("no archive: %+v", tj.AgentStory)
	}
	if _, err := os.Stat(tj.AgentStory.Agent.Archive); err != nil {
		t.Errorf("archive: %v", err)
	}
	var st struct {
		Systems []struct {
			Scheduler struct{ Running int } `json:"scheduler"`
		} `json:"systems"`
	}
	if err := json.Unmarshal([]byte(d.warden(t, "serve", "status", "--json")), &st); err != nil || len(st.Systems) != 1 || st.Systems[0].Scheduler.Running != 0 {
		t.Errorf("slot not freed: %+v %v", st, err)
	}
	t.Logf("killed agent noticed after %v", took.Round(100*time.Millisecond))
}
