package usage

import (
	"os"
	"path/filepath"
	"strings"
)

// Finding the transcripts: Claude Code's config directories and every
// *.jsonl under their projects/ (the listing cache is in dircache.go).

// File is one transcript file.
type File struct {
	Path    string
	Project string // first directory under projects/
	Session string // file stem; for <session>/subagents/*.jsonl the session directory
	Size    int64
	MtimeNs int64
}

// ConfigDirs are the Claude Code config directories to read:
// CLAUDE_CONFIG_DIR (comma-separated) when set, else ~/.claude and
// $XDG_CONFIG_HOME/claude (~/.config/claude).
func ConfigDirs() []string {
	var dirs []string
	if v := os.Getenv("CLAUDE_CONFIG_DIR"); strings.TrimSpace(v) != "" {
		for _, d := range strings.Split(v, ",") {
			if d = strings.TrimSpace(d); d != "" {
				dirs = append(dirs, d)
			}
		}
		return dirs
	}
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" {
		xdg = filepath.Join(home, ".config")
	}
	return []string{filepath.Join(home, ".claude"), filepath.Join(xdg, "claude")}
}

// Discover lists every *.jsonl under <dir>/projects for each dir, sorted by
// path (the order duplicates are resolved in). Project directories are
// walked in parallel (a stat per file dominates).
func Discover(dirs []string) ([]File, error) { return DiscoverCached(dirs, nil) }
