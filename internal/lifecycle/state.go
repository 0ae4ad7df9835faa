package lifecycle

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/warden-dev/warden/internal/atomicfile"
	"os"
	"path/filepath"
	"time"
)

// File names under <project>/.warden/state.
const (
	LastSessionFile  = "last-session.json"
	PreCompactFile   = "pre-compact-state.json"
	LearnPendingFile = "learn-pending"
	PendingResume    = "pending-resume.json"
)

// StateDir is <project>/.warden/state.
func StateDir(project string) string { return filepath.Join(project, ".warden", "state") }

// HandoffDir is <project>/.warden/handoffs.
func HandoffDir(project string) string { return filepath.Join(project, ".warden", "handoffs") }

// LastSession is last-session.json, written at Stop and SessionEnd.
type LastSession struct {
	EndedAt            string `json:"ended_at"` // RFC 3339 / ISO-8601, UTC
	Branch             string `json:"branch"`
	UncommittedChanges int    `json:"uncommitted_changes"`
	Phase              string `json:"phase"`
	Task               string `json:"task"`
	SessionID          string `json:"session_id"`
	// Reason is "stop" or the SessionEnd reason.
	Reason string `json:"reason,omitempty"`
}

// PreCompactState is pre-compact-state.json, written at PreCompact. It
// holds paths only, never file contents or diffs.
type PreCompactState struct {
	CapturedAt         string   `json:"captured_at"`
	Branch             string   `json:"branch"`
	UncommittedChanges int      `json:"uncommitted_changes"`
	RecentFiles        []string `json:"recent_files"`
	SessionID          string   `json:"session_id"`
	Trigger            string   `json:"trigger,omitempty"`
}

// Resume is pending-resume.json: the handoff the next SessionStart in this
// project injects (once).
type Resume struct {
	Path      string `json:"path"`
	SessionID string `json:"session_id"`
	CreatedAt string `json:"created_at"`
}

// Timestamp formats t the way every state file does.
func Timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// WriteJSON writes v as indented JSON to path atomically: a temp file in
// the same directory, fsync, rename. Missing directories are created. A
// reader sees the old file or the new one, never half of either.
func WriteJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, append(b, '\n'), 0o644)
}

// WriteFileAtomic writes data to path through a temp file and a rename.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	return atomicfile.Write(path, data, perm)
}

// ReadJSON decodes path into v; os.ErrNotExist when it is absent.
func ReadJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// SetLearnPending creates the learn-pending flag file (idempotent).
func SetLearnPending(project string, now time.Time) error {
	p := filepath.Join(StateDir(project), LearnPendingFile)
	if _, err := os.Stat(p); err == nil {
		return nil
	}
	return WriteFileAtomic(p, []byte(Timestamp(now)+"\n"), 0o644)
}

// LearnPending reports whether the flag is set.
func LearnPending(project string) bool {
	_, err := os.Stat(filepath.Join(StateDir(project), LearnPendingFile))
	return err == nil
}

// ClearLearnPending removes the flag.
func ClearLearnPending(project string) error {
	err := os.Remove(filepath.Join(StateDir(project), LearnPendingFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// RegisterResume makes handoff path the pending resume of project.
func RegisterResume(project, path, sessionID string, now time.Time) error {
	return WriteJSON(filepath.Join(StateDir(project), PendingResume),
		Resume{Path: path, SessionID: sessionID, CreatedAt: Timestamp(now)})
}

// TakeResume returns the pending resume and clears it, so it is injected
// exactly once. The registration is removed before its content is returned:
// a second SessionStart racing this one finds nothing. ok is false when
// nothing was pending (or the handoff file is gone).
func TakeResume(project string) (r Resume, content string, ok bool) {
	p := filepath.Join(StateDir(project), PendingResume)
	// Claim it by renaming: only one process can win the rename.
	claimed := p + fmt.Sprintf(".taken-%d", os.Getpid())
	if err := os.Rename(p, claimed); err != nil {
		return Resume{}, "", false
	}
	defer os.Remove(claimed)
	if err := ReadJSON(claimed, &r); err != nil || r.Path == "" {
		return Resume{}, "", false
	}
	path := r.Path
	if !filepath.IsAbs(path) {
		path = filepath.Join(project, path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return r, "", false
	}
	return r, string(b), true
}
