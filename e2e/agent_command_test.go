package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/testenv"
)

// A command agent (agent.mode = "command": no Claude Code, no Stop hook)
// run by `warden serve` in tmux: it commits and exits 0, the task's
// criteria hold, so the task is done — it used to fail for want of Claude
// Code's Stop.
func TestDaemonCommandAgentDone(t *testing.T) {
	w := defaultWorld(t, Script{})
	d := startDaemonAgent(t, w, `mode = "command"
command = ["sh", "-c", "cat {prompt_file} > note.txt && git add note.txt && git commit -qm 'add note' && echo committed"]`)
	id := addTask(t, d, "Write a note.")
	tj := d.waitTask(t, id, finalStatus, 60*time.Second)
	story := d.warden(t, "task", "show", id)
	if tj.Task.Status != "done" || tj.Task.AgentState != "done" {
		t.Fatalf("task %s (agent %s): %s\n%s", tj.Task.Status, tj.Task.AgentState, tj.Task.Error, story)
	}
	if msg := strings.TrimSpace(testenv.Git(t, w.Project, "log", "-1", "--format=%s", "warden/"+id)); msg != "add note" {
		t.Errorf("branch tip %q", msg)
	}
	if !strings.Contains(story, "the agent exited 0 with its criteria met") {
		t.Errorf("task show lacks the reason:\n%s", story)
	}
}

// A failed agent says why where people look — task show, the task's
// error (board and task page), not only `warden agent logs`: its last
// error line, the pane's last lines and the next step.
//
// Not parallel: at load 10-11 the story lacked the script's error line
// and the pane's last lines (twice, weeks apart) — the agent exits at
// once and the daemon read its pane before tmux had drained it. The
// daemon now waits for the pane to settle (agent/why.go captureTail:
// tmux's "Pane is dead" line, or the same text twice).
func TestDaemonFailedAgentSaysWhy(t *testing.T) {
	w := defaultWorld(t, Script{})
	script := filepath.Join(w.Dir, "agent.sh")
	writeExec(t, script, "#!/bin/sh\necho 'Starting the agent'\necho 'checking the API…'\necho 'Error: Unable to connect to Anthropic services' >&2\necho 'Please check your internet connection and network settings.'\nexit 1\n")
	d := startDaemonAgent(t, w, fmt.Sprintf("mode = \"command\"\ncommand = [%q]", script))
	id := addTask(t, d, "Do something.")
	tj := d.waitTask(t, id, finalStatus, 60*time.Second)
	story := d.warden(t, "task", "show", id)
	if tj.Task.Status != "failed" {
		t.Fatalf("task %s\n%s", tj.Task.Status, story)
	}
	for _, want := range []string{
		"last error: Error: Unable to connect to Anthropic services",
		"Please check your internet connection", // the pane's last lines
		"next:",
	} {
		if !strings.Contains(story, want) {
			t.Errorf("task show lacks %q:\n%s", want, story)
		}
	}
	t.Logf("warden task show:\n%s", story)
	if !strings.Contains(tj.Task.Error, "Unable to connect to Anthropic services") || !strings.Contains(tj.Task.Error, "Next:") {
		t.Errorf("the task's error (board, task page) does not say why: %s", tj.Task.Error)
	}
}

func writeExec(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
}

// The real Claude Code whose model endpoint refuses connections: the
// task fails and says why (Claude Code's own error line) and what to do,
// in the task's error and in task show.
func TestDaemonClaudeUnreachableSaysWhy(t *testing.T) {
	w := defaultWorld(t, Script{Steps: []Step{{Text: "never sent"}}})
	w.API.Close() // ANTHROPIC_BASE_URL now refuses connections
	// Claude Code retries for minutes without a hook event: a short
	// idle timeout ends it.
	d := startDaemonMode(t, w, "", "idle_timeout = 20")
	id := addTask(t, d, "Add hello.txt and commit it.")
	start := time.Now()
	tj := d.waitTask(t, id, finalStatus, 90*time.Second)
	story := d.warden(t, "task", "show", id)
	t.Logf("failed after %v:\n%s", time.Since(start).Round(100*time.Millisecond), story)
	if tj.Task.Status != "failed" || !strings.Contains(tj.Task.Error, "Next:") {
		t.Fatalf("task %s: %s", tj.Task.Status, tj.Task.Error)
	}
	if !strings.Contains(tj.Task.Error, "last error: Connection refused") || !strings.Contains(story, "last lines of its window:") {
		t.Errorf("the failure does not say what the agent said:\n%s", story)
	}
}
