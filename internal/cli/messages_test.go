package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// The messages a newcomer meets first: each says what went wrong and what
// to type instead.
func TestFirstMessagesSayWhatToDo(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("WARDEN_HOME", filepath.Join(home, ".warden"))
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	tests := []struct {
		name string
		args []string
		code int
		want []string // in stderr
		not  []string
	}{
		{"typo of a command", []string{"statu"}, 1,
			[]string{`unknown command "statu"`, "Did you mean: stats, status, statusline?", "Run 'warden --help'"}, nil},
		{"nothing close", []string{"frobnicate"}, 1,
			[]string{`unknown command "frobnicate"`, "Run 'warden --help' for the list of commands."}, []string{"Did you mean"}},
		{"typo of a subcommand", []string{"policy", "explian"}, 1,
			[]string{`unknown command "explian" for "warden policy"`, "Did you mean: explain?", "Run 'warden policy --help'"}, nil},
		{"policy explain with nothing", []string{"policy", "explain"}, 1,
			[]string{"nothing to explain", "warden policy explain -- 'git push --force'", "--call"}, []string{"not both"}},
		{"usage with no transcripts", []string{"usage", "daily"}, 0,
			[]string{"no Claude Code transcripts", filepath.Join(home, ".claude", "projects"), filepath.Join(home, ".config", "claude", "projects"), "CLAUDE_CONFIG_DIR"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr %s", code, tt.code, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(stderr, w) {
					t.Errorf("stderr has %q:\n%s", w, stderr)
				}
			}
		})
	}
}

func TestVersionNamesCommitAndDate(t *testing.T) {
	out, stderr, code := runCLI(t, "version", "--json")
	var v struct{ Version, Commit, Date, Go string }
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || v.Version == "" || v.Go == "" {
		t.Fatalf("version --json: exit %d %q %q", code, out, stderr)
	}
	text, _, _ := runCLI(t, "version")
	if !strings.HasPrefix(text, "warden "+v.Version+" (commit ") {
		t.Errorf("version = %q", text)
	}
}
