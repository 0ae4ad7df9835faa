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
	cases := map[string]func(*StrictInput){
		"first 3":        func(in *StrictInput) { in.ToolCount = 3 },
		"after a user":   func(in *StrictInput) { in.FirstAfterPrompt = true },
		"denied or":      func(in *StrictInput) { in.AfterTrouble = true },
		"large edit":     func(in *StrictInput) { in.ChangedLines = 21 },
		"plan mode":      func(in *StrictInput) { in.PermissionMode = "plan" },
		"CLAUDE.md":      func(in *StrictInput) { in.FilePath = "/p/CLAUDE.md" },
		"plan file":      func(in *StrictInput) { in.FilePath = "/h/.claude/plans/big-plan.md" },
		"outside the pr": func(in *StrictInput) { in.FilePath = "/etc/hosts" },
	}
	for want, mod := range cases {
		in := base
		mod(&in)
		if r := StrictReason(in); r == "" || !strings.Contains(r, strings.Fields(want)[0]) && want != "plan file" {
			t.Errorf("%s: StrictReason = %q", want, r)
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
