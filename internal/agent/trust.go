package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/warden-dev/warden/internal/atomicfile"
)

// Claude Code asks "Do you trust the files in this folder?" the first time
// it runs interactively in a directory, and remembers the answer in its
// global config (~/.claude.json, or $CLAUDE_CONFIG_DIR/.claude.json) under
// projects[<dir>].hasTrustDialogAccepted. An agent in tmux has nobody to
// answer, so warden answers yes for that one worktree — never for a parent
// directory — and takes the entry out again when the worktree is removed.

// ClaudeGlobalConfig is the file holding Claude Code's per-folder trust.
func ClaudeGlobalConfig(getenv func(string) string) string {
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, ".claude.json")
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, ".claude.json")
}

// trustMu serialises warden's own read-change-write of the file (agents
// start side by side); the write is atomic, so Claude Code never reads a
// half-written file.
var trustMu sync.Mutex

// Trust marks dir as trusted in the config file path, keeping every other
// key as it is.
func Trust(path, dir string) error {
	return editProjects(path, func(projects map[string]json.RawMessage) error {
		entry := map[string]json.RawMessage{}
		if raw, ok := projects[dir]; ok {
			if err := json.Unmarshal(raw, &entry); err != nil {
				return fmt.Errorf("projects[%q] is not an object: %w", dir, err)
			}
		}
		entry["hasTrustDialogAccepted"] = json.RawMessage("true")
		entry["hasCompletedProjectOnboarding"] = json.RawMessage("true")
		b, err := json.Marshal(entry)
		projects[dir] = b
		return err
	})
}

// Untrust removes dir's entry (the worktree is gone; its entry would only
// pile up).
func Untrust(path, dir string) error {
	return editProjects(path, func(projects map[string]json.RawMessage) error {
		delete(projects, dir)
		return nil
	})
}

func editProjects(path string, edit func(map[string]json.RawMessage) error) error {
	trustMu.Lock()
	defer trustMu.Unlock()
	top := map[string]json.RawMessage{}
	mode := os.FileMode(0o600)
	b, err := os.ReadFile(path)
	switch {
	case os.IsNotExist(err):
	case err != nil:
		return err
	default:
		if fi, err := os.Stat(path); err == nil {
			mode = fi.Mode().Perm()
		}
		if len(bytes.TrimSpace(b)) > 0 {
			if err := json.Unmarshal(b, &top); err != nil {
				return fmt.Errorf("%s is not valid JSON (%v); fix or remove it, Claude Code rewrites it", path, err)
			}
		}
	}
	projects := map[string]json.RawMessage{}
	if raw, ok := top["projects"]; ok {
		if err := json.Unmarshal(raw, &projects); err != nil {
			return fmt.Errorf("%s: key projects is not an object: %w", path, err)
		}
	}
	if err := edit(projects); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	pb, err := json.Marshal(projects)
	if err != nil {
		return err
	}
	top["projects"] = pb
	out, err := json.MarshalIndent(top, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, append(out, '\n'), mode)
}
