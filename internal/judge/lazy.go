package judge

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"time"
)

// Strict vs lazy (SPEC §5). A pre-tool judge runs strictly (the hook waits
// for it) when a mistake would be costly or context is fresh; otherwise
// lazily: the call is allowed at once, warden-helper judge runs detached, and a
// failed verdict is delivered as a denial by the session's next PreToolUse
// (once). Pending verdicts older than PendingTTL are dropped.

// PendingTTL is how long a lazy verdict waits to be delivered.
const PendingTTL = 5 * time.Minute

// Strict triggers.
const (
	strictFirstCalls   = 3
	strictChangedLines = 20
)

// StrictInput is what the strict-or-lazy decision looks at.
type StrictInput struct {
	// ToolCount is the session's PreToolUse count including this call.
	ToolCount int
	// FirstAfterPrompt: the first mutating call since the user's last prompt.
	FirstAfterPrompt bool
	// AfterTrouble: the previous call was denied or failed.
	AfterTrouble   bool
	ChangedLines   int
	PermissionMode string
	// FilePath is the file the call writes ("" for none).
	FilePath, ProjectDir, ClaudeDir string
}

// StrictReason returns why the call must be judged strictly, or "" when
// it may be judged lazily.
func StrictReason(in StrictInput) string {
	switch {
	case in.ToolCount <= strictFirstCalls:
		return "one of the first 3 tool calls of the session"
	case in.FirstAfterPrompt:
		return "the first change after a user prompt"
	case in.AfterTrouble:
		return "the previous call was denied or failed"
	case in.ChangedLines > strictChangedLines:
		return "a large edit (more than 20 changed lines)"
	case in.PermissionMode == "plan":
		return "plan mode"
	case in.FilePath != "" && SpecialFile(in.FilePath):
		return "a CLAUDE.md or plan file"
	case in.FilePath != "" && Untrusted(in.FilePath, in.ProjectDir, in.ClaudeDir):
		return "a path outside the project"
	}
	return ""
}

// SpecialFile: CLAUDE.md files and plan files.
func SpecialFile(path string) bool {
	base := strings.ToLower(filepath.Base(path))
	if base == "claude.md" || base == "claude.local.md" {
		return true
	}
	p := filepath.ToSlash(strings.ToLower(path))
	return strings.HasSuffix(base, ".md") && (strings.Contains(base, "plan") || strings.Contains(p, "/plans/"))
}

// Untrusted: outside the project and outside Claude Code's own directory.
func Untrusted(path, projectDir, claudeDir string) bool {
	if !filepath.IsAbs(path) {
		return false
	}
	for _, root := range []string{projectDir, claudeDir} {
		if root == "" {
			continue
		}
		if r, err := filepath.Rel(root, path); err == nil && r != ".." && !strings.HasPrefix(r, "../") {
			return false
		}
	}
	return true
}

// fileChange is the input of a file tool (Write, Edit, MultiEdit,
// NotebookEdit).
type fileChange struct {
	Content   string `json:"content"`
	OldString string `json:"old_string"`
	NewString string `json:"new_string"`
	NewSource string `json:"new_source"`
	Edits     []struct {
		OldString string `json:"old_string"`
		NewString string `json:"new_string"`
	} `json:"edits"`
}

// ChangedLines estimates the lines a file tool changes: a Write's content,
// an Edit's larger side, the sum over a MultiEdit's edits.
func ChangedLines(tool string, input json.RawMessage) int {
	var in fileChange
	if json.Unmarshal(input, &in) != nil {
		return 0
	}
	switch tool {
	case "Write":
		return lines(in.Content)
	case "Edit":
		return max(lines(in.OldString), lines(in.NewString))
	case "MultiEdit":
		n := 0
		for _, e := range in.Edits {
			n += max(lines(e.OldString), lines(e.NewString))
		}
		return n
	case "NotebookEdit":
		return lines(in.NewSource)
	}
	return 0
}

func lines(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}

// FileTools are the tools intent validation looks at.
var FileTools = map[string]bool{"Write": true, "Edit": true, "MultiEdit": true, "NotebookEdit": true}

// ChangeText renders a file tool's change for a reviewer prompt.
func ChangeText(tool string, input json.RawMessage, limit int) string {
	var in fileChange
	json.Unmarshal(input, &in)
	var b strings.Builder
	switch tool {
	case "Write":
		b.WriteString("New content of the whole file:\n```\n" + in.Content + "\n```")
	case "Edit":
		b.WriteString("Replace:\n```\n" + in.OldString + "\n```\nwith:\n```\n" + in.NewString + "\n```")
	case "MultiEdit":
		for i, e := range in.Edits {
			b.WriteString("Edit " + itoa(i+1) + ": replace:\n```\n" + e.OldString + "\n```\nwith:\n```\n" + e.NewString + "\n```\n")
		}
	case "NotebookEdit":
		b.WriteString("New cell source:\n```\n" + in.NewSource + "\n```")
	default:
		b.Write(input)
	}
	return clip(b.String(), limit)
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
