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
	// Claude Code rewrites the same file without a lock: read, change,
	// then write only if the file still holds what was read, else start
	// over from its new content, so a write it made meanwhile is kept.
	for attempt := 0; ; attempt++ {
		before, out, mode, err := editedProjects(path, edit)
		if err != nil {
			return err
		}
		now, err := os.ReadFile(path)
		if err != nil && !os.IsNotExist(err) {
			return err
		}
		if !bytes.Equal(now, before) && attempt < 5 {
			continue // changed under us: edit the new content
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		return atomicfile.Write(path, out, mode)
	}
}

// editedProjects reads path, applies edit to its projects and returns
// the bytes read, the bytes to write and the file's mode.
func editedProjects(path string, edit func(map[string]json.RawMessage) error) (before, out []byte, mode os.FileMode, err error) {
	top := map[string]json.RawMessage{}
	mode = 0o600
	b, err := os.ReadFile(path)
	switch {
	case os.IsNotExist(err):
		b = nil
	case err != nil:
		return nil, nil, 0, err
	default:
		if fi, err := os.Stat(path); err == nil {
			mode = fi.Mode().Perm()
		}
		if len(bytes.TrimSpace(b)) > 0 {
			if err := json.Unmarshal(b, &top); err != nil {
				return nil, nil, 0, fmt.Errorf("%s is not valid JSON (%v); fix or remove it, Claude Code rewrites it", path, err)
			}
		}
	}
	projects := map[string]json.RawMessage{}
	if raw, ok := top["projects"]; ok {
		if err := json.Unmarshal(raw, &projects); err != nil {
			return nil, nil, 0, fmt.Errorf("%s: key projects is not an object: %w", path, err)
		}
	}
	if err := edit(projects); err != nil {
		return nil, nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	pb, err := json.Marshal(projects)
	if err != nil {
		return nil, nil, 0, err
	}
	top["projects"] = pb
	o, err := json.MarshalIndent(top, "", "  ")
	if err != nil {
		return nil, nil, 0, err
	}
	return b, append(o, '\n'), mode, nil
}
