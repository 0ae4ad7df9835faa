package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/testenv"
)

// The TUI driver: Claude Code's interactive mode in a private tmux server,
// for what print mode never does (the status line runs only in the TUI).
// Prompts are typed with send-keys; every wait is on warden's own store
// (SessionStart, Stop, SessionEnd events), never on the screen, which is
// only read for what the user sees.

// TUI is one interactive Claude Code session in a tmux session of the
// run's private tmux server.
type TUI struct {
	r       *Run
	name    string // tmux session name
	dir     string // the project it runs in
	session string // Claude Code's session id, from its SessionStart
}

// tmuxSocket is the run's private tmux server socket.
func (r *Run) tmuxSocket() string { return filepath.Join(r.Dir, "tmux.sock") }

// tmux runs a tmux command against the run's private server.
func (r *Run) tmux(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "tmux", append([]string{"-S", r.tmuxSocket()}, args...)...).CombinedOutput()
	return string(out), err
}

// trustProjects writes the run's ~/.claude.json so the TUI opens straight
// to its prompt: onboarding done, the e2e API key approved, bypass mode
// accepted and each project directory trusted (as a user does once).
func (r *Run) trustProjects(t *testing.T, dirs ...string) {
	t.Helper()
	projects := map[string]any{}
	for _, d := range dirs {
		projects[d] = map[string]any{"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true}
	}
	key := "sk-ant-e2e-fake-key-0000000000000000"
	cfg := map[string]any{
		"hasCompletedOnboarding":        true,
		"lastOnboardingVersion":         claudeVersion,
		"theme":                         "dark",
		"bypassPermissionsModeAccepted": true,
		"customApiKeyResponses":         map[string]any{"approved": []string{key[len(key)-20:]}, "rejected": []string{}},
		"projects":                      projects,
	}
	b, _ := json.MarshalIndent(cfg, "", "  ")
	if err := os.WriteFile(filepath.Join(r.Home, ".claude.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// startTUI starts Claude Code interactive in dir (trusted by
// trustProjects) as tmux session name, with exactly env, and waits for its
// SessionStart in warden's store.
func (r *Run) startTUI(t *testing.T, name, dir string, env []string, claude string) *TUI {
	t.Helper()
	testenv.RequireCommand(t, "tmux", "tmux")
	known := map[string]bool{}
	for _, e := range r.eventsNamed("SessionStart") {
		known[e.SessionID] = true
	}
	var sb strings.Builder
	sb.WriteString("#!/bin/sh\n")
	fmt.Fprintf(&sb, "cd %s || exit 1\nexec env -i", shellQuote(dir))
	for _, kv := range env {
		sb.WriteString(" " + shellQuote(kv))
	}
	fmt.Fprintf(&sb, " %s --permission-mode bypassPermissions 2>%s\n", shellQuote(claude),
		shellQuote(filepath.Join(r.Dir, name+".stderr")))
	launch := filepath.Join(r.Dir, name+".launch.sh")
	if err := os.WriteFile(launch, []byte(sb.String()), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := r.tmux("new-session", "-d", "-s", name, "-x", "200", "-y", "50", launch); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	u := &TUI{r: r, name: name, dir: dir}
	if !r.tuiServer {
		// Once, so that it runs after every TUI's own kill (cleanups run
		// last first): a server killed first would kill the other TUIs'
		// claude without their SessionEnd.
		r.tuiServer = true
		t.Cleanup(r.stopTUIServer)
	}
	t.Cleanup(u.kill)
	waitFor(t, 60*time.Second, "SessionStart of the TUI in "+dir, func() bool {
		for _, e := range r.eventsNamed("SessionStart") {
			if !known[e.SessionID] && e.Cwd == dir {
				u.session = e.SessionID
				return true
			}
		}
		return false
	}, u.screen)
	// The prompt takes keys once the TUI has drawn its input box.
	waitFor(t, 20*time.Second, "the TUI's input prompt", func() bool {
		return strings.Contains(u.screen(), "❯") || strings.Contains(u.screen(), "> ")
	}, u.screen)
	return u
}

// Session is Claude Code's session id of this TUI.
func (u *TUI) Session() string { return u.session }

// prompt types text and waits for the turn's Stop (or StopFailure).
func (u *TUI) prompt(t *testing.T, text string, timeout time.Duration) {
	t.Helper()
	u.waitStop(t, u.send(t, text), timeout)
}

// send types text and Enter; it returns the session's count of Stop and
// StopFailure events before, for waitStop.
func (u *TUI) send(t *testing.T, text string) int {
	t.Helper()
	stops := u.count("Stop", "StopFailure")
	target := "=" + u.name + ":"
	if out, err := u.r.tmux("send-keys", "-t", target, "-l", text); err != nil {
		t.Fatalf("send-keys: %v: %s", err, out)
	}
	// The TUI takes fast input as a paste; Enter as a separate key
	// submits it.
	time.Sleep(300 * time.Millisecond)
	if out, err := u.r.tmux("send-keys", "-t", target, "Enter"); err != nil {
		t.Fatalf("send-keys Enter: %v: %s", err, out)
	}
	return stops
}

// waitStop waits until the session has more Stop or StopFailure events
// than before.
func (u *TUI) waitStop(t *testing.T, before int, timeout time.Duration) {
	t.Helper()
	waitFor(t, timeout, "the turn's Stop in "+u.name, func() bool {
		return u.count("Stop", "StopFailure") > before
	}, u.screen)
}

// count is the number of this session's events of the given names.
func (u *TUI) count(names ...string) int {
	n := 0
	for _, name := range names {
		for _, e := range u.r.eventsNamed(name) {
			if e.SessionID == u.session {
				n++
			}
		}
	}
	return n
}

// screen is what the pane shows now.
func (u *TUI) screen() string {
	out, _ := u.r.tmux("capture-pane", "-p", "-t", "="+u.name+":")
	return out
}

// history is the pane's whole scrollback and screen.
func (u *TUI) history() string {
	out, _ := u.r.tmux("capture-pane", "-p", "-S", "-", "-t", "="+u.name+":")
	return out
}

// exit types /exit and waits for the session's SessionEnd and for the
// Claude Code process to be gone.
func (u *TUI) exit(t *testing.T) {
	t.Helper()
	target := "=" + u.name + ":"
	pid := u.panePID()
	u.r.tmux("send-keys", "-t", target, "-l", "/exit")
	time.Sleep(300 * time.Millisecond)
	u.r.tmux("send-keys", "-t", target, "Enter")
	waitFor(t, 30*time.Second, "SessionEnd of the TUI", func() bool { return u.count("SessionEnd") > 0 }, u.screen)
	if pid > 0 {
		waitFor(t, 15*time.Second, "claude to exit", func() bool { return !processAlive(pid) }, u.screen)
	}
	u.kill()
}

// panePID is the pid of the pane's process (claude, after exec).
func (u *TUI) panePID() int {
	out, err := u.r.tmux("display-message", "-p", "-t", "="+u.name+":", "#{pane_pid}")
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(out))
	return pid
}

// kill ends the session if it still runs: /exit first, so that Claude
// Code runs its SessionEnd hooks and exits by itself (a killed claude's
// hooks could start a store keeper after the run's cleanup stopped it),
// then the tmux session.
func (u *TUI) kill() {
	target := "=" + u.name + ":"
	if _, err := u.r.tmux("has-session", "-t", "="+u.name); err != nil {
		return
	}
	if pid := u.panePID(); pid > 0 {
		u.r.tmux("send-keys", "-t", target, "Escape")
		u.r.tmux("send-keys", "-t", target, "-l", "/exit")
		time.Sleep(300 * time.Millisecond)
		u.r.tmux("send-keys", "-t", target, "Enter")
		for deadline := time.Now().Add(20 * time.Second); processAlive(pid) && time.Now().Before(deadline); {
			time.Sleep(200 * time.Millisecond)
		}
	}
	u.r.tmux("kill-session", "-t", "="+u.name)
}

// stopTUIServer kills the run's tmux server; registered by runs that
// start TUIs, before the store keeper is stopped.
func (r *Run) stopTUIServer() {
	r.tmux("kill-server")
	os.Remove(r.tmuxSocket())
}

// eventsNamed reads the store's events of one name (nil while there is no
// store yet).
func (r *Run) eventsNamed(name string) []EventRow {
	evs, err := r.readEvents()
	if err != nil {
		return nil
	}
	var out []EventRow
	for _, e := range evs {
		if e.Event == name {
			out = append(out, e)
		}
	}
	return out
}

// waitFor polls cond every 200 ms until it holds or timeout passes; then
// the test fails with what and, when given, the screen.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool, screen func() string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			msg := fmt.Sprintf("timed out after %s waiting for %s", timeout, what)
			if screen != nil {
				msg += "\nscreen:\n" + screen()
			}
			t.Fatal(msg)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// shellQuote quotes s for /bin/sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
