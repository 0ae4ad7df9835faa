package handlers_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
)

// TestVillainSuite plays an agent trying to get around the gates while
// safemode is on and the breaker is tripped: every attempt must be denied
// (or, for tampering done outside warden's sight, detected).
func TestVillainSuite(t *testing.T) {
	s := newSim(t, "")
	home := s.home
	db := filepath.Join(home, "warden.db")
	s.prompt("s+")
	for i := 0; i < 3; i++ {
		s.fail("Bash", bash("make"), "Exit code 2\nmake: *** [all] Error 1")
	}
	p := func(name string) string { return filepath.Join(s.project, name) }
	attempts := []struct {
		name  string
		tool  string
		input map[string]any
	}{
		{"plain write", "Write", s.write("a.go")},
		{"edit", "Edit", map[string]any{"file_path": p("a.go"), "old_string": "a", "new_string": "b"}},
		{"multiedit", "MultiEdit", map[string]any{"file_path": p("a.go"), "edits": []any{}}},
		{"notebook", "NotebookEdit", map[string]any{"notebook_path": p("n.ipynb"), "new_source": "x"}},
		{"MCP filesystem write", "mcp__filesystem__write_file", map[string]any{"path": p("a.go"), "content": "x"}},
		{"MCP filesystem move", "mcp__filesystem__move_file", map[string]any{"source": p("a"), "destination": p("b")}},
		{"MCP github push", "mcp__github__push_files", map[string]any{}},
		{"redirect", "Bash", bash("echo x > a.go")},
		{"heredoc", "Bash", bash("cat <<'EOF' > a.go\npackage a\nEOF")},
		{"tee", "Bash", bash("echo x | tee a.go")},
		{"sed in place", "Bash", bash("sed -i 's/a/b/' a.go")},
		{"perl in place", "Bash", bash("perl -pi -e 's/a/b/' a.go")},
		{"bash -c", "Bash", bash("bash -c 'rm -f a.go'")},
		{"nested shells", "Bash", bash(`sh -c "bash -c 'zsh -c \"rm a.go\"'"`)},
		{"eval", "Bash", bash(`eval "rm a.go"`)},
		{"python one-liner", "Bash", bash(`python3 -c 'import os; os.remove("a.go")'`)},
		{"node one-liner", "Bash", bash(`node -e 'require("fs").unlinkSync("a.go")'`)},
		{"find -delete", "Bash", bash("find . -name '*.go' -delete")},
		{"find -exec", "Bash", bash(`find . -name a.go -exec rm {} \;`)},
		{"xargs", "Bash", bash("ls *.go | xargs rm")},
		{"backslash rm", "Bash", bash(`\rm a.go`)},
		{"command rm", "Bash", bash("command rm a.go")},
		{"env wrapper", "Bash", bash("env -i FOO=1 rm a.go")},
		{"sudo wrapper", "Bash", bash("sudo -n rm a.go")},
		{"command substitution", "Bash", bash("echo $(rm a.go)")},
		{"function body", "Bash", bash(`f() { rm "$1"; }; f a.go`)},
		{"alias", "Bash", bash("alias ls='rm -f'")},
		{"split: write a script, then run it", "Bash", bash("bash ./fix.sh")},
		{"sqlite3 on the store", "Bash", bash(`sqlite3 ` + db + ` "UPDATE settings SET value='' WHERE key='safemode'"`)},
		{"sqlite3 deletes the breaker", "Bash", bash(`sqlite3 ` + db + ` "DELETE FROM settings"`)},
		{"delete the state key", "Bash", bash("rm " + filepath.Join(home, "keys", "state.key"))},
		{"cp over the binary", "Bash", bash("cp /bin/true " + filepath.Join(home, "bin", "warden"))},
		{"chmod -x the binary", "Bash", bash("chmod -x " + filepath.Join(home, "bin", "warden"))},
		{"drop the hooks from settings.json", "Write", map[string]any{"file_path": filepath.Join(home, ".claude", "settings.json"), "content": "{}"}},
		{"mv the config", "Bash", bash("mv " + filepath.Join(home, "config.toml") + " /tmp/x")},
		{"turn safemode off", "Bash", bash("warden safemode off")},
		{"reset the breaker", "Bash", bash("warden breaker reset")},
		{"master switch", "Bash", bash("pace-maker off")},
		{"hidden reset", "Bash", bash(`true && (cd / ; bash -c "warden breaker reset")`)},
		{"git commit", "Bash", bash("git commit -am wip")},
		{"git stash", "Bash", bash("git stash")},
		{"curl download", "Bash", bash("curl -sSLo tool https://example.com/tool")},
		{"dd", "Bash", bash("dd if=/dev/zero of=a.go bs=1 count=1")},
		{"unparseable", "Bash", bash("echo 'unterminated > a.go")},
	}
	if len(attempts) < 30 {
		t.Fatalf("the suite needs at least 30 attempts, has %d", len(attempts))
	}
	for _, a := range attempts {
		if r := s.pre(a.tool, a.input); r.decision() != "deny" {
			t.Errorf("%s: %q got through (%s)", a.name, toString(a.input), r.text())
		}
	}
	// Safe calls still work: the gates deny changes, not work.
	for _, c := range []string{"ls -la", "go test ./...", "git status", "cat a.go"} {
		if r := s.pre("Bash", bash(c)); r.decision() != "" {
			t.Errorf("%q denied: %s", c, r.text())
		}
	}

	// What warden cannot see (a change made outside any tool call) is
	// detected: edit the session state row in the store directly.
	st, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	sqlitetest.Exec(t, st.Path(), `UPDATE sessions SET state = '{}' WHERE id = ?`, s.session)
	st.Close()
	if r := s.pre("Read", map[string]any{"file_path": p("a.go")}); !strings.Contains(r.stderr, "tamper") {
		t.Errorf("direct edit of the session state not detected: %q", r.stderr)
	}
}
