package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// tmuxTimeout bounds one tmux command: the server answers at once or is
// stuck.
const tmuxTimeout = 10 * time.Second

// SessionName is the tmux session holding one window per running agent.
const SessionName = "warden"

// Tmux drives a tmux server. Every target is exact (-t =session:=window):
// without '=', tmux matches prefixes and patterns, so window "t1" could
// hit "t10".
type Tmux struct {
	Bin     string // "" = tmux from PATH
	Socket  string // -S path; "" = the user's default server, so `tmux attach -t warden` works
	Session string // "" = SessionName

	mu sync.Mutex // one window creation at a time: the first one makes the session
}

// ErrNoTmux is returned when tmux is not installed.
var ErrNoTmux = errors.New("tmux is not installed (Debian/Ubuntu: apt-get install tmux; macOS: brew install tmux)")

func (t *Tmux) bin() (string, error) {
	b := t.Bin
	if b == "" {
		b = "tmux"
	}
	p, err := exec.LookPath(b)
	if err != nil {
		return "", ErrNoTmux
	}
	return p, nil
}

func (t *Tmux) session() string {
	if t.Session != "" {
		return t.Session
	}
	return SessionName
}

// Target is the exact-match target of a task's window.
func (t *Tmux) Target(window string) string { return "=" + t.session() + ":=" + window }

// Argv is the full tmux command line for args (for attach, which the
// CLI runs in the foreground).
func (t *Tmux) Argv(args ...string) ([]string, error) {
	b, err := t.bin()
	if err != nil {
		return nil, err
	}
	argv := []string{b}
	if t.Socket != "" {
		argv = append(argv, "-S", t.Socket)
	}
	return append(argv, args...), nil
}

func (t *Tmux) run(ctx context.Context, args ...string) (string, error) {
	argv, err := t.Argv(args...)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, tmuxTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	// A tmux started from inside tmux would otherwise talk to that
	// client's server and refuse to nest.
	cmd.Env = withoutEnv(os.Environ(), "TMUX", "TMUX_PANE")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("tmux %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

// WindowSpec is one agent's window.
type WindowSpec struct {
	Name string   // the task id
	Dir  string   // the worktree
	Argv []string // what runs in the pane
}

// NewWindow opens the task's window in the warden session, creating the
// session when it is the first. The window keeps its name (no automatic
// or escape-sequence renames) and stays after its process exits
// (remain-on-exit), so the exit status and the last screen can be read;
// the options are set in the same tmux command as the window is made, so
// even a process that exits at once leaves its window.
func (t *Tmux) NewWindow(ctx context.Context, w WindowSpec) error {
	if len(w.Argv) == 0 {
		return errors.New("tmux window " + w.Name + ": nothing to run")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if ok, err := t.HasWindow(ctx, w.Name); err != nil {
		return err
	} else if ok {
		return fmt.Errorf("tmux window %s:%s already exists", t.session(), w.Name)
	}
	target := t.Target(w.Name)
	opts := []string{";", "set-option", "-w", "-t", target, "remain-on-exit", "on",
		";", "set-option", "-w", "-t", target, "automatic-rename", "off",
		";", "set-option", "-w", "-t", target, "allow-rename", "off"}
	var args []string
	if t.hasSession(ctx) {
		args = []string{"new-window", "-d", "-t", "=" + t.session() + ":", "-n", w.Name, "-c", w.Dir}
	} else {
		args = []string{"new-session", "-d", "-s", t.session(), "-n", w.Name, "-c", w.Dir, "-x", "200", "-y", "50"}
	}
	args = append(append(args, w.Argv...), opts...)
	_, err := t.run(ctx, args...)
	return err
}

func (t *Tmux) hasSession(ctx context.Context) bool {
	_, err := t.run(ctx, "has-session", "-t", "="+t.session())
	return err == nil
}

// Window is one window of the warden session as tmux reports it.
type Window struct {
	Name       string `json:"name"`
	PanePID    int    `json:"pane_pid"`
	Dead       bool   `json:"dead"`        // the process exited (remain-on-exit keeps the window)
	DeadStatus int    `json:"dead_status"` // its exit status when Dead, -1 while tmux has not reported it
}

// Windows lists the session's windows; none (and no error) when the
// session or the server does not exist.
func (t *Tmux) Windows(ctx context.Context) ([]Window, error) {
	if _, err := t.bin(); err != nil {
		return nil, err
	}
	if !t.hasSession(ctx) {
		return nil, nil
	}
	out, err := t.run(ctx, "list-windows", "-t", "="+t.session(), "-F",
		"#{window_name}\t#{pane_pid}\t#{pane_dead}\t#{pane_dead_status}")
	if err != nil {
		if !t.hasSession(ctx) { // the last window closed meanwhile
			return nil, nil
		}
		return nil, err
	}
	var ws []Window
	// Only newlines are trimmed: a live pane's empty exit status leaves a
	// trailing tab that is a field.
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			continue
		}
		// tmux marks a pane dead when its terminal closes and learns the
		// exit status when it reaps the process, a moment later (tmux 3.3a
		// sometimes never shows it): -1 until it is known.
		status, err := strconv.Atoi(f[3])
		if err != nil {
			status = -1
		}
		w := Window{Name: f[0], Dead: f[2] == "1", DeadStatus: status}
		w.PanePID, _ = strconv.Atoi(f[1])
		ws = append(ws, w)
	}
	return ws, nil
}

// Window returns the named window, or nil when it does not exist.
func (t *Tmux) Window(ctx context.Context, name string) (*Window, error) {
	ws, err := t.Windows(ctx)
	if err != nil {
		return nil, err
	}
	for i := range ws {
		if ws[i].Name == name {
			return &ws[i], nil
		}
	}
	return nil, nil
}

// HasWindow reports whether the named window exists.
func (t *Tmux) HasWindow(ctx context.Context, name string) (bool, error) {
	w, err := t.Window(ctx, name)
	return w != nil, err
}

// Capture returns the last lines of the window's pane (scrollback
// included), for logs only: an agent's state never comes from here.
func (t *Tmux) Capture(ctx context.Context, name string, lines int) (string, error) {
	return t.run(ctx, "capture-pane", "-p", "-J", "-S", "-"+strconv.Itoa(lines), "-t", t.Target(name))
}

// SendKeys types keys (tmux key names: Enter, Escape, or text) into the
// window's pane: a person's answer to the dialog an agent waits at.
func (t *Tmux) SendKeys(ctx context.Context, name string, keys ...string) error {
	_, err := t.run(ctx, append([]string{"send-keys", "-t", t.Target(name)}, keys...)...)
	return err
}

// KillWindow closes the window; tmux hangs up the process in it. A window
// already gone is not an error.
func (t *Tmux) KillWindow(ctx context.Context, name string) error {
	ok, err := t.HasWindow(ctx, name)
	if err != nil || !ok {
		return err
	}
	_, err = t.run(ctx, "kill-window", "-t", t.Target(name))
	if err != nil {
		if ok, _ := t.HasWindow(ctx, name); !ok {
			return nil
		}
	}
	return err
}

// KillServer ends the tmux server (tests with a private socket only).
func (t *Tmux) KillServer(ctx context.Context) error {
	_, err := t.run(ctx, "kill-server")
	return err
}

// AttachArgv is the command that shows the task's window on the user's
// terminal: attach from a plain terminal, switch-client from inside tmux.
func (t *Tmux) AttachArgv(name string, insideTmux bool) ([]string, error) {
	if insideTmux && t.Socket == "" {
		return t.Argv("switch-client", "-t", t.Target(name))
	}
	return t.Argv("attach-session", "-t", t.Target(name))
}

func withoutEnv(env []string, names ...string) []string {
	out := env[:0:0]
next:
	for _, kv := range env {
		for _, n := range names {
			if strings.HasPrefix(kv, n+"=") {
				continue next
			}
		}
		out = append(out, kv)
	}
	return out
}
