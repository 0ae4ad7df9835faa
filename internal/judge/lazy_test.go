package judge

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestStrictReason(t *testing.T) {
	base := StrictInput{ToolCount: 10, FilePath: "/p/pkg/a.go", ProjectDir: "/p", ClaudeDir: "/h/.claude", ChangedLines: 3}
	if r := StrictReason(base); r != "" {
		t.Fatalf("base case is strict: %s", r)
	}
	// Each change of the base case alone makes the call strict, for its
	// own reason: the exact reason is checked, so a case caught by an
	// earlier rule (or by none) fails.
	cases := []struct {
		want string
		mod  func(*StrictInput)
	}{
		{"one of the first 3 tool calls of the session", func(in *StrictInput) { in.ToolCount = 3 }},
		{"the first change after a user prompt", func(in *StrictInput) { in.FirstAfterPrompt = true }},
		{"the previous call was denied or failed", func(in *StrictInput) { in.AfterTrouble = true }},
		{"a large edit (more than 20 changed lines)", func(in *StrictInput) { in.ChangedLines = 21 }},
		{"plan mode", func(in *StrictInput) { in.PermissionMode = "plan" }},
		{"a CLAUDE.md or plan file", func(in *StrictInput) { in.FilePath = "/p/CLAUDE.md" }},
		{"a CLAUDE.md or plan file", func(in *StrictInput) { in.FilePath = "/h/.claude/plans/big-plan.md" }},
		{"a path outside the project", func(in *StrictInput) { in.FilePath = "/etc/hosts" }},
	}
	for _, c := range cases {
		in := base
		c.mod(&in)
		if r := StrictReason(in); r != c.want {
			t.Errorf("StrictReason(%+v) = %q, want %q", in, r, c.want)
		}
	}
	// The boundaries: the 4th call and a 20-line edit are not strict.
	for _, mod := range []func(*StrictInput){
		func(in *StrictInput) { in.ToolCount = 4 },
		func(in *StrictInput) { in.ChangedLines = 20 },
	} {
		in := base
		mod(&in)
		if r := StrictReason(in); r != "" {
			t.Errorf("StrictReason(%+v) = %q, want none", in, r)
		}
	}
	in := base
	in.FilePath = "/h/.claude/settings-notes.txt"
	if r := StrictReason(in); r != "" {
		t.Errorf("a file under ~/.claude is trusted: %q", r)
	}
}

func TestChangedLines(t *testing.T) {
	in, _ := json.Marshal(map[string]any{"edits": []map[string]string{{"old_string": "a\nb", "new_string": "a\nb\nc"}, {"old_string": "x", "new_string": "y"}}})
	if n := ChangedLines("MultiEdit", in); n != 4 {
		t.Errorf("MultiEdit lines = %d, want 4", n)
	}
	w, _ := json.Marshal(map[string]string{"content": strings.Repeat("line\n", 25)})
	if n := ChangedLines("Write", w); n != 25 {
		t.Errorf("Write lines = %d, want 25", n)
	}
}
