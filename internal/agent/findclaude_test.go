package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Claude Code installed after the daemon started is found at the next
// launch: in the agent's PATH, or in $HOME/.local/bin where its installer
// puts it even when that directory is not on the PATH the daemon got.
func TestAgentArgvFindsClaudeInstalledLater(t *testing.T) {
	dir := t.TempDir()
	home, bin := filepath.Join(dir, "home"), filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o755)
	env := []string{"PATH=" + bin, "HOME=" + home}
	s := LaunchSpec{Task: "t1", Prompt: "hi", Env: env}
	_, err := AgentArgv(s)
	if err == nil || !strings.Contains(err.Error(), "install Claude Code") {
		t.Fatalf("before the install: %v; want how to install it", err)
	}
	local := filepath.Join(home, ".local", "bin")
	os.MkdirAll(local, 0o755)
	os.WriteFile(filepath.Join(local, "claude"), []byte("#!/bin/sh\n"), 0o755)
	argv, err := AgentArgv(s)
	if err != nil || argv[0] != filepath.Join(local, "claude") {
		t.Fatalf("after the install into ~/.local/bin: %v %v", argv, err)
	}
	os.WriteFile(filepath.Join(bin, "claude"), []byte("#!/bin/sh\n"), 0o755)
	if argv, err := AgentArgv(s); err != nil || argv[0] != filepath.Join(bin, "claude") {
		t.Fatalf("on the agent's PATH first: %v %v", argv, err)
	}
	os.WriteFile(filepath.Join(bin, "notexec"), []byte("x"), 0o644)
	if _, err := FindProgram(filepath.Join(bin, "notexec"), env); err == nil {
		t.Error("a file without the x bit was taken")
	}
}

// A reloaded config changes how the next agent starts and the idle
// timeout; the paths and the tmux server stay.
func TestReconfigure(t *testing.T) {
	m := NewManager(Config{Worktrees: "/w", Scripts: "/s", Tmux: &Tmux{Socket: "/sock"}, Claude: "/old/claude", IdleTimeout: time.Minute}, nil)
	m.Reconfigure(Config{Claude: "/new/claude", PermissionMode: "acceptEdits", Worktrees: "/elsewhere", Tmux: &Tmux{Socket: "/other"}})
	c := m.Config()
	if c.Claude != "/new/claude" || c.PermissionMode != "acceptEdits" || c.Mode != ModeInteractive || c.IdleTimeout != 30*time.Minute {
		t.Errorf("reconfigured %+v", c)
	}
	if c.Worktrees != "/w" || c.Tmux.Socket != "/sock" {
		t.Errorf("paths or tmux changed: %s %s", c.Worktrees, c.Tmux.Socket)
	}
}
