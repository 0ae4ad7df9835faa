package judge

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// The drift judges (validation.plan_drift, style_drift, claude_md) look at
// file changes the user may not have asked for: a plan that wanders from
// the request, a CLAUDE.md edit that loosens the user's rules, an edit that
// is mostly reformatting. This file holds what they share: which files they
// concern and how a change is shown to the judge.

// IsClaudeMD: a file Claude Code loads as instructions — CLAUDE.md (in the
// project, a subdirectory, .claude/ or the user's ~/.claude/) or
// CLAUDE.local.md. Case-insensitive, as on macOS and Windows file systems.
func IsClaudeMD(path string) bool {
	base := filepath.Base(filepath.Clean(path))
	return strings.EqualFold(base, "CLAUDE.md") || strings.EqualFold(base, "CLAUDE.local.md")
}

// IsPlanFile: a file under Claude Code's plans directory (<claudeDir>/plans/,
// where plan mode writes its plans).
func IsPlanFile(path, claudeDir string) bool {
	if claudeDir == "" || !filepath.IsAbs(path) {
		return false
	}
	rel, err := filepath.Rel(filepath.Join(claudeDir, "plans"), filepath.Clean(path))
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

// EditPair is one replacement of an Edit or MultiEdit.
type EditPair struct {
	Old, New string
	All      bool
}

// EditPairs returns an Edit's or MultiEdit's replacements (nil for other tools).
func EditPairs(tool string, input json.RawMessage) []EditPair {
	type edit struct {
		OldString  string `json:"old_string"`
		NewString  string `json:"new_string"`
		ReplaceAll bool   `json:"replace_all"`
	}
	var in struct {
		edit
		Edits []edit `json:"edits"`
	}
	if json.Unmarshal(input, &in) != nil {
		return nil
	}
	switch tool {
	case "Edit":
		return []EditPair{{in.OldString, in.NewString, in.ReplaceAll}}
	case "MultiEdit":
		out := make([]EditPair, 0, len(in.Edits))
		for _, e := range in.Edits {
			out = append(out, EditPair{e.OldString, e.NewString, e.ReplaceAll})
		}
		return out
	}
	return nil
}

// DriftChange renders a Write, Edit or MultiEdit for a drift judge. With
// the file's current content (exists) it also shows what the change
// replaces: a Write's old content (so removed lines are visible, which is
// what a CLAUDE.md judge most needs), an edit's result as a whole file.
func DriftChange(tool string, input json.RawMessage, current string, exists bool, limit int) string {
	limit = max(limit, 1000)
	half := limit / 2
	if tool == "Write" {
		var in struct {
			Content string `json:"content"`
		}
		json.Unmarshal(input, &in)
		if !exists {
			return clip("A new file:\n```\n"+clip(in.Content, limit-40)+"\n```", limit)
		}
		return clip("The current content:\n```\n"+clip(current, half-40)+"\n```\n\nis replaced by:\n```\n"+
			clip(in.Content, half-40)+"\n```", limit)
	}
	change := ChangeText(tool, input, half)
	if !exists {
		return change
	}
	after, ok := applyEdits(current, EditPairs(tool, input))
	if !ok {
		return change
	}
	room := max(limit-len(change)-60, 200)
	return clip(change+"\n\nThe whole file after the change:\n```\n"+clip(after, room)+"\n```", limit)
}

// applyEdits applies replacements as the Edit tool does; false when one
// does not apply (the tool will fail on its own).
func applyEdits(s string, pairs []EditPair) (string, bool) {
	if len(pairs) == 0 {
		return s, false
	}
	for _, p := range pairs {
		if p.Old == "" || !strings.Contains(s, p.Old) {
			return s, false
		}
		n := 1
		if p.All {
			n = -1
		}
		s = strings.Replace(s, p.Old, p.New, n)
	}
	return s, true
}

// formattingWords, in a user prompt or a tool failure, mean formatting was
// asked for (or is what broke): a formatting edit is then no drift. Single
// words match the start of a word ("format" matches "formatting", not
// "information"); the others match anywhere.
var formattingWords = []string{"format", "reformat", "lint", "prettier", "gofmt", "gofumpt", "goimports",
	"rustfmt", "clang-format", "eslint", "stylelint", "ruff", "autopep8", "yapf", "isort", "indent",
	"whitespace", "code style", "style guide", "coding style", "tidy", "black ."}

// FormattingAsked reports whether any of texts asks for formatting.
func FormattingAsked(texts ...string) bool {
	for _, t := range texts {
		l := strings.ToLower(t)
		ws := words(l)
		for _, f := range formattingWords {
			if strings.ContainsAny(f, " -.") {
				if strings.Contains(l, f) {
					return true
				}
				continue
			}
			for _, w := range ws {
				if strings.HasPrefix(w, f) {
					return true
				}
			}
		}
	}
	return false
}
