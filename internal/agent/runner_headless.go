package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/warden-dev/warden/internal/task"
)

// EnvTaskID is set in an agent's environment (see package task).
const EnvTaskID = task.EnvTaskID

// HeadlessName is the default runner's agent kind.
const HeadlessName = "claude-p"

// Headless runs a task as `claude -p ARGS… <PROMPT` (the prompt on stdin) in the task's project
// directory, output to files under Dir/<task>/. The process is a group
// leader (Stop ends the whole group) and, on Linux, dies with the daemon
// (Pdeathsig), so a killed daemon leaves no agent behind: the restarted
// daemon queues the task again.
type Headless struct {
	// Command is the claude executable (an absolute path, or a name looked
	// up in Env's PATH at start).
	Command string
	// Args follow -p (`--output-format json`, a permission mode).
	Args []string
	// Env is the agent's environment (captured when the daemon started;
	// EnvTaskID is added).
	Env []string
	// Dir holds each task's output files.
	Dir string
	// Timeout ends a run that takes longer (0: no limit).
	Timeout time.Duration
	// Grace is how long Stop waits after SIGTERM before SIGKILL (default 5 s).
	Grace time.Duration
}

// Name implements Runner.
func (h *Headless) Name() string { return HeadlessName }

// Start implements Runner.
func (h *Headless) Start(ctx context.Context, t *task.Task) (Run, error) {
	// Without a worktree of its own there is no task.json for the
	// agent's hooks to read and no base to check criteria against: a task
	// with rules of its own fails rather than running without them.
	if t.HasRules() {
		return nil, fmt.Errorf("task %s has its own criteria or operations, which only the tmux runner enforces; add it again with --agent tmux (or set agent.runner = \"tmux\")", t.ID)
	}
	fi, err := os.Stat(t.Project)
	if err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("project directory %s does not exist; create it or cancel the task", t.Project)
	}
	bin, err := h.lookPath()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(h.Dir, t.ID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("task output directory: %w", err)
	}
	base := filepath.Join(dir, "attempt-"+strconv.Itoa(t.Attempts))
	stdout, err := os.OpenFile(base+".out", os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("task output: %w", err)
	}
	stderr, err := os.OpenFile(base+".err", os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		stdout.Close()
		return nil, fmt.Errorf("task output: %w", err)
	}
	prompt, err := promptFile(base+".prompt", t.Prompt)
	if err != nil {
		stdout.Close()
		stderr.Close()
		return nil, err
	}
	defer prompt.Close() // the child has its own descriptor once started
	// The prompt goes on stdin, never in argv: a prompt such as
	// "--dangerously-skip-permissions" would be read as that option, and
	// argv is readable by every user (ps).
	cmd := exec.Command(bin, append([]string{"-p"}, h.Args...)...)
	cmd.Dir = t.Project
	cmd.Env = append(withoutKey(h.Env, EnvTaskID), EnvTaskID+"="+t.ID)
	cmd.Stdin = prompt
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = agentProcAttr()
	if err := startLocked(cmd); err != nil {
		stdout.Close()
		stderr.Close()
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	r := &headlessRun{cmd: cmd, outPath: base + ".out", errPath: base + ".err", done: make(chan struct{}), grace: h.Grace}
	if r.grace <= 0 {
		r.grace = 5 * time.Second
	}
	go r.wait(stdout, stderr, h.Timeout)
	return r, nil
}

// Reattach implements Runner: a headless agent cannot be watched again (its
// exit status went to the dead daemon), so a survivor is killed, with
// every process of its group left behind (taskGroup), and the task
// queued again.
func (h *Headless) Reattach(ctx context.Context, t *task.Task) (Run, error) {
	pid, ok := strings.CutPrefix(t.AgentRef, "pid:")
	if !ok {
		return nil, nil
	}
	n, err := strconv.Atoi(pid)
	if err != nil || n <= 1 {
		return nil, nil
	}
	if isTaskProcess(n, t.ID) {
		_ = syscall.Kill(-n, syscall.SIGKILL)
	}
	for _, p := range taskGroup(n, t.ID) {
		_ = syscall.Kill(p, syscall.SIGKILL)
	}
	return nil, nil
}

// promptFile writes the prompt next to the attempt's output (0600: it may
// hold what the user would not show) and opens it for the agent's stdin:
// a file, not a pipe, so no writer has to wait for the agent to read.
func promptFile(path, prompt string) (*os.File, error) {
	if err := os.WriteFile(path, []byte(prompt), 0o600); err != nil {
		return nil, fmt.Errorf("task prompt file: %w", err)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("task prompt file: %w", err)
	}
	return f, nil
}

func (h *Headless) lookPath() (string, error) {
	name := h.Command
	if name == "" {
		name = "claude"
	}
	if strings.Contains(name, "/") {
		if _, err := os.Stat(name); err != nil {
			return "", fmt.Errorf("agent command %s not found; set serve.claude_command to Claude Code's path", name)
		}
		return name, nil
	}
	for _, d := range filepath.SplitList(envLookup(h.Env, "PATH")) {
		if d == "" {
			continue
		}
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s is not on the daemon's PATH; install Claude Code or set serve.claude_command to its path", name)
}

type headlessRun struct {
	cmd              *exec.Cmd
	outPath, errPath string
	grace            time.Duration
	done             chan struct{}
	mu               sync.Mutex
	outcome          Outcome
	stopping         bool
	handedBack       bool
}

func (r *headlessRun) Ref() string                    { return "pid:" + strconv.Itoa(r.cmd.Process.Pid) }
func (r *headlessRun) Done() <-chan struct{}          { return r.done }
func (r *headlessRun) Stop(ctx context.Context) error { return r.stop(ctx) }

// Shutdown implements Run: a headless agent dies with the daemon anyway,
// so it is stopped here and reaped; its task is handed back (HandedBack).
func (r *headlessRun) Shutdown(ctx context.Context) error {
	select {
	case <-r.done:
		return nil // it ended on its own: its outcome stands
	default:
	}
	r.mu.Lock()
	r.handedBack = true
	r.mu.Unlock()
	return r.stop(ctx)
}

// HandedBack implements handBack: Shutdown stopped the agent while it
// worked.
func (r *headlessRun) HandedBack() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.handedBack
}

func (r *headlessRun) Outcome() Outcome {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.outcome
}

// wait reaps the process and reads how it ended.
func (r *headlessRun) wait(stdout, stderr *os.File, timeout time.Duration) {
	defer close(r.done)
	var timer *time.Timer
	timedOut := false
	if timeout > 0 {
		timer = time.AfterFunc(timeout, func() {
			r.mu.Lock()
			timedOut = true
			r.mu.Unlock()
			_ = syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL)
		})
	}
	err := r.cmd.Wait()
	if timer != nil {
		timer.Stop()
	}
	stdout.Close()
	stderr.Close()
	r.mu.Lock()
	defer r.mu.Unlock()
	out := readTail(r.outPath, 256<<10)
	switch {
	case timedOut:
		r.outcome = Outcome{Status: task.Failed, Error: fmt.Sprintf("timed out after %v (serve.task_timeout)", timeout)}
	case r.stopping:
		r.outcome = Outcome{Status: task.Failed, Error: "stopped"}
	case err != nil:
		msg := lastOutputLine(readTail(r.errPath, 4096))
		if msg == "" {
			msg = lastOutputLine(out)
		}
		r.outcome = Outcome{Status: task.Failed, Error: fmt.Sprintf("claude %v: %s", err, msg)}
	default:
		r.outcome = Outcome{Status: task.Done, Result: resultText(out)}
		if isErrorResult(out) {
			r.outcome = Outcome{Status: task.Failed, Error: "claude reported an error: " + resultText(out)}
		}
	}
}

func (r *headlessRun) stop(ctx context.Context) error {
	r.mu.Lock()
	r.stopping = true
	r.mu.Unlock()
	pid := r.cmd.Process.Pid
	_ = syscall.Kill(-pid, syscall.SIGTERM)
	select {
	case <-r.done:
		return nil
	case <-time.After(r.grace):
	case <-ctx.Done():
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	select {
	case <-r.done:
		return nil
	case <-time.After(5 * time.Second):
		return fmt.Errorf("agent pid %d did not exit after SIGKILL", pid)
	}
}

// resultText is the "result" of `--output-format json` output, else the
// output itself (trimmed to its last 4 KB).
func resultText(out string) string {
	var v struct {
		Result string `json:"result"`
	}
	if json.Unmarshal([]byte(strings.TrimSpace(out)), &v) == nil && v.Result != "" {
		return v.Result
	}
	s := strings.TrimSpace(out)
	if len(s) > 4096 {
		s = "…" + s[len(s)-4096:]
	}
	return s
}

// isErrorResult: `--output-format json` says is_error: true (a run that
// exited 0 but did not do the work: max turns, API errors).
func isErrorResult(out string) bool {
	var v struct {
		IsError bool `json:"is_error"`
	}
	return json.Unmarshal([]byte(strings.TrimSpace(out)), &v) == nil && v.IsError
}

func readTail(path string, n int64) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > n {
		_, _ = f.Seek(fi.Size()-n, 0)
	}
	var b bytes.Buffer
	_, _ = b.ReadFrom(f)
	return b.String()
}

func lastOutputLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 500 {
		s = s[:500] + "…"
	}
	return s
}

func envLookup(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

func withoutKey(env []string, key string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != key {
			out = append(out, kv)
		}
	}
	return out
}
