package service

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/atomicfile"
)

// Target is where a format's file goes and how it is managed.
type Target struct {
	Format string
	// Path of the unit or plist file.
	Path string
	// Run runs a manager command (systemctl, launchctl) and returns its
	// combined output; nil runs nothing (--no-start, tests).
	Run func(ctx context.Context, name string, args ...string) ([]byte, error)
}

// PathFor is where format's file lives for a user with home dir home and
// XDG config dir xdg ("" = home/.config).
func PathFor(format, home, xdg string) string {
	if format == Launchd {
		return filepath.Join(home, "Library", "LaunchAgents", Label+".plist")
	}
	if xdg == "" {
		xdg = filepath.Join(home, ".config")
	}
	return filepath.Join(xdg, "systemd", "user", UnitName)
}

// ExecRun runs a command with a deadline.
func ExecRun(ctx context.Context, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return exec.CommandContext(ctx, name, args...).CombinedOutput()
}

// Install writes content to t.Path (atomically; an identical file is left
// alone) and enables and starts the service.
func Install(ctx context.Context, t Target, content []byte) (changed bool, err error) {
	old, rerr := os.ReadFile(t.Path)
	changed = rerr != nil || !bytes.Equal(old, content)
	if changed {
		if err := os.MkdirAll(filepath.Dir(t.Path), 0o755); err != nil {
			return false, fmt.Errorf("create %s: %w", filepath.Dir(t.Path), err)
		}
		if err := atomicfile.Write(t.Path, content, 0o600); err != nil { // it may hold the shared store's URL
			return false, err
		}
	} else if err := os.Chmod(t.Path, 0o600); err != nil {
		return false, err
	}
	if t.Run == nil {
		return changed, nil
	}
	switch t.Format {
	case Systemd:
		if err := run(ctx, t, "systemctl", "--user", "daemon-reload"); err != nil {
			return changed, err
		}
		verb := "enable"
		if changed {
			verb = "reenable"
		}
		if err := run(ctx, t, "systemctl", "--user", verb, "--now", UnitName); err != nil {
			return changed, err
		}
		if changed {
			return changed, run(ctx, t, "systemctl", "--user", "restart", UnitName)
		}
	case Launchd:
		dom := "gui/" + strconv.Itoa(os.Getuid())
		_ = run(ctx, t, "launchctl", "bootout", dom+"/"+Label) // not loaded yet is fine
		return changed, run(ctx, t, "launchctl", "bootstrap", dom, t.Path)
	}
	return changed, nil
}

// Uninstall stops and disables the service and removes its file; no file
// is not an error (removed reports whether one was there).
func Uninstall(ctx context.Context, t Target) (removed bool, err error) {
	if _, err := os.Stat(t.Path); errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if t.Run != nil {
		switch t.Format {
		case Systemd:
			_ = run(ctx, t, "systemctl", "--user", "disable", "--now", UnitName)
		case Launchd:
			_ = run(ctx, t, "launchctl", "bootout", "gui/"+strconv.Itoa(os.Getuid())+"/"+Label)
		}
	}
	if err := os.Remove(t.Path); err != nil {
		return false, err
	}
	if t.Run != nil && t.Format == Systemd {
		_ = run(ctx, t, "systemctl", "--user", "daemon-reload")
	}
	return true, nil
}

// Status says whether the file exists and what the manager reports.
func Status(ctx context.Context, t Target) (installed bool, state string) {
	if _, err := os.Stat(t.Path); err != nil {
		return false, "not installed"
	}
	if t.Run == nil {
		return true, "installed"
	}
	var out []byte
	switch t.Format {
	case Systemd:
		out, _ = t.Run(ctx, "systemctl", "--user", "is-active", UnitName)
	case Launchd:
		out, _ = t.Run(ctx, "launchctl", "print", "gui/"+strconv.Itoa(os.Getuid())+"/"+Label)
		if s := string(out); strings.Contains(s, "state = running") {
			out = []byte("running")
		} else if s != "" {
			out = []byte("loaded, not running")
		}
	}
	state = strings.TrimSpace(string(out))
	if state == "" {
		state = "unknown (the service manager did not answer)"
	}
	return true, state
}

func run(ctx context.Context, t Target, name string, args ...string) error {
	out, err := t.Run(ctx, name, args...)
	if err != nil {
		return fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}
