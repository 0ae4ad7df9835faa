// Package demo is `warden serve --demo`: one task run end to end, in a
// minute, without a subscription or the network. It makes a throwaway
// world (a home with warden installed by its own installer and Claude
// Code's first-run dialogs answered, a git project, a private tmux
// server), starts a scripted model that speaks the Messages API on a
// loopback port (internal/fakeapi) and points Claude Code at it through
// ANTHROPIC_BASE_URL, runs a real `warden serve` there, queues one task
// and prints it going queued → working → done, then its diff. Nothing of
// the user's own warden, Claude Code config or tmux is read or changed.
package demo

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/fakeapi"
)

// Options configure Run.
type Options struct {
	// Bin is the warden front binary whose directory holds the others.
	Bin string
	// Claude is Claude Code's path ("" = found as the agents find it).
	Claude string
	// Keep leaves the throwaway directory in place.
	Keep bool
	// Out gets the story; Timeout bounds the task (default 3 minutes).
	Out     io.Writer
	Timeout time.Duration
}

// Prompt is the demo task.
const Prompt = "Add hello.txt with a greeting and commit it."

// Script is what the scripted model does with it: write the file, commit
// it, say it is done; each call goes through warden's policy like any.
func Script() fakeapi.Script {
	return fakeapi.Script{Steps: []fakeapi.Step{
		{Text: "I'll add hello.txt.", Tools: []fakeapi.ToolUse{{Name: "Bash", Input: map[string]any{
			"command": "printf 'Hello from the warden demo!\\n' > hello.txt", "description": "Write hello.txt"}}}},
		{Tools: []fakeapi.ToolUse{{Name: "Bash", Input: map[string]any{
			"command": "git add hello.txt && git commit -q -m 'Add hello.txt'", "description": "Commit hello.txt"}}}},
		{Text: "Done: hello.txt is committed on this task's branch."},
	}, DoneText: "Done."}
}

// demoKey is the API key Claude Code sends the scripted model; it is no
// Anthropic key.
const demoKey = "sk-ant-warden-demo-000000000000000000000"

// Run runs the demo until the task ends or ctx does.
func Run(ctx context.Context, o Options) error {
	if o.Timeout <= 0 {
		o.Timeout = 3 * time.Minute
	}
	out := o.Out
	w, err := newWorld(ctx, o)
	if err != nil {
		return err
	}
	defer w.close(o.Keep)
	fmt.Fprintf(out, "warden demo: a throwaway project in %s\n", w.project)
	fmt.Fprintf(out, "  Claude Code %s talks to a scripted model at %s (no subscription, no network)\n", w.claudeVersion, w.api.URL())

	d, err := w.serve(ctx)
	if err != nil {
		return err
	}
	defer d.stop()
	fmt.Fprintf(out, "  warden serve runs at %s\n\n", d.url)

	var added struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	if b, err := w.warden(ctx, "task", "add", "--json", "-C", w.project, Prompt); err != nil || json.Unmarshal(b, &added) != nil || added.ID == "" {
		return fmt.Errorf("warden task add: %v: %s", err, b)
	}
	fmt.Fprintf(out, "task %s: %q\n", added.ID, Prompt)
	fmt.Fprintf(out, "  %5.1fs  %s\n", 0.0, added.Status) // as the API took it
	status, err := w.follow(ctx, added.ID, added.Status, o.Timeout, out)
	if err != nil {
		fmt.Fprintf(out, "\nthe daemon's log:\n%s\n", tail(d.log.String(), 3000))
		return err
	}
	if status != "done" {
		b, _ := w.warden(ctx, "task", "show", added.ID)
		return fmt.Errorf("the demo task ended %s:\n%s", status, b)
	}
	b, err := w.warden(ctx, "task", "diff", added.ID)
	if err != nil {
		return fmt.Errorf("warden task diff: %v: %s", err, b)
	}
	fmt.Fprintf(out, "\n$ warden task diff %s\n%s\n", added.ID, strings.TrimRight(string(b), "\n"))
	fmt.Fprintf(out, "\nThat was one task, run by real Claude Code under warden's policy in its own git worktree and tmux window.\n")
	fmt.Fprintf(out, "Next: make install (if not done), warden serve, and warden task add -C YOUR_PROJECT \"...\" (see docs/demo.md).\n")
	if o.Keep {
		fmt.Fprintf(out, "The demo's files stay in %s (WARDEN_HOME=%s); remove them with rm -rf %s\n", w.dir, w.wardenHome, w.dir)
	}
	return nil
}

// follow prints each new status of the task (last: the one printed)
// until it ends.
func (w *world) follow(ctx context.Context, id, last string, timeout time.Duration, out io.Writer) (string, error) {
	deadline := time.Now().Add(timeout)
	start := time.Now()
	seen := 0 // agent states printed from the history
	for {
		var tj struct {
			Task struct {
				Status     string `json:"status"`
				AgentState string `json:"agent_state"`
				AgentNote  string `json:"agent_note"`
				Error      string `json:"error"`
				Result     string `json:"result"`
			} `json:"task"`
			Agent struct {
				History []struct {
					State string    `json:"state"`
					At    time.Time `json:"at"`
				} `json:"history"`
			} `json:"agent_story"`
		}
		b, err := w.warden(ctx, "task", "show", id, "--json")
		if err == nil && json.Unmarshal(b, &tj) == nil {
			status := tj.Task.Status
			final := status == "done" || status == "failed" || status == "cancelled"
			line := func(at float64, what string) {
				l := fmt.Sprintf("  %5.1fs  %s", max(at, 0), what)
				switch {
				case tj.Task.Result != "" && what == "done":
					l += ": " + tj.Task.Result
				case tj.Task.Error != "" && final:
					l += ": " + tj.Task.Error
				}
				fmt.Fprintln(out, l)
				last = what
			}
			if status != "running" && !final && status != last {
				line(time.Since(start).Seconds(), status) // queued, claimed: the scheduler's steps
			}
			if status == "running" || final {
				// The agent's states as its hooks recorded them, each once
				// and in order: a state shorter than a poll (a scripted
				// model's few tool calls, a loaded machine) is still shown.
				for _, h := range tj.Agent.History[min(seen, len(tj.Agent.History)):] {
					if h.State != last && !agentStateFinal(h.State) {
						line(h.At.Sub(start).Seconds(), h.State)
					}
				}
				seen = len(tj.Agent.History)
			}
			switch {
			case final:
				if status != last {
					line(time.Since(start).Seconds(), status)
				}
				return status, nil
			case status == "running" && len(tj.Agent.History) == 0:
				// no recorded history yet: the agent's state as it is now
				now := status
				if tj.Task.AgentState != "" && tj.Task.AgentState != "done" {
					now = tj.Task.AgentState
				}
				if now != last {
					line(time.Since(start).Seconds(), now)
				}
			}
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("the demo task did not end within %v (warden task show %s)", timeout, id)
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(300 * time.Millisecond):
		}
	}
}

// daemon is the demo's `warden serve`.
type daemon struct {
	cmd  *exec.Cmd
	url  string
	log  *lockedBuffer
	done chan struct{}
}

func (w *world) serve(ctx context.Context) (*daemon, error) {
	d := &daemon{log: &lockedBuffer{}, done: make(chan struct{})}
	d.cmd = exec.Command(w.bin, "serve", "--log-stderr")
	d.cmd.Dir, d.cmd.Env, d.cmd.Stderr = w.project, w.env, d.log
	stdout, err := d.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := d.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { d.cmd.Wait(); close(d.done) }()
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if _, addr, ok := strings.Cut(sc.Text(), "listening on "); ok {
				ready <- "http://" + strings.Fields(addr)[0]
			}
		}
	}()
	select {
	case d.url = <-ready:
		return d, nil
	case <-d.done:
		return nil, fmt.Errorf("the demo's warden serve stopped at start:\n%s", tail(d.log.String(), 3000))
	case <-time.After(30 * time.Second):
		d.stop()
		return nil, fmt.Errorf("the demo's warden serve did not start within 30 s:\n%s", tail(d.log.String(), 3000))
	case <-ctx.Done():
		d.stop()
		return nil, ctx.Err()
	}
}

func (d *daemon) stop() {
	_ = d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.done:
	case <-time.After(20 * time.Second):
		_ = d.cmd.Process.Kill()
		<-d.done
	}
}

// findClaude is Claude Code's path, or how to install it.
func findClaude(path string) (string, error) {
	if path == "" {
		path = "claude"
	}
	p, err := agent.FindProgram(path, os.Environ())
	if err != nil {
		return "", errors.New("the demo runs the real Claude Code, which is not installed here: " + agent.InstallClaudeHint + "; then run warden serve --demo again")
	}
	return p, nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// agentStateFinal: an agent state after which the task's own status
// tells the end (done, error, timed out).
func agentStateFinal(s string) bool { return s == "done" || s == "error" || s == "timed_out" }
