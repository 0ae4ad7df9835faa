package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
)

// An incident becomes a regression test in one command: recorded calls the
// policy blocked, or chosen ones, become [[case]] entries of the project's
// history.toml, moved into the test environment, which `warden policy
// test` then runs.
func TestPolicyTestFromHistory(t *testing.T) {
	t.Setenv("WARDEN_HOME", t.TempDir())
	proj, _ := filepath.EvalSymlinks(t.TempDir())
	t.Setenv("CLAUDE_PROJECT_DIR", proj)
	t.Chdir(proj)
	recordCalls(t, proj, bash("rm -rf ~/Documents"), bash("ls -la"),
		`"tool_name":"Write","tool_input":{"file_path":"`+proj+`/main.go","content":"package main\n"}`,
		bash("cat "+proj+"/notes/salaries.csv"))
	file := filepath.Join(proj, ".warden", "rules", "history.toml")

	out, errs, code := runCLI(t, "policy", "test", "--from-history")
	if code != 0 || !strings.Contains(out, "added 1 cases to "+file) {
		t.Fatalf("from-history: code %d %s %s", code, out, errs)
	}
	b, _ := os.ReadFile(file)
	text := string(b)
	if !strings.Contains(text, `command = "rm -rf ~/Documents"`) || !strings.Contains(text, `expect = "deny"`) ||
		!strings.Contains(text, "recorded deny by core.") || strings.Contains(text, "ls -la") {
		t.Errorf("history.toml:\n%s", text)
	}
	if _, errs, code := runCLI(t, "policy", "test", "--from-history"); code == 0 || !strings.Contains(errs, "already are") {
		t.Errorf("the same calls again must add nothing: %d %s", code, errs)
	}

	// Chosen events: the Write's path moves into the test project.
	evs := sqlitetest.Events(t, paths.DB())
	out, errs, code = runCLI(t, "policy", "test", "--from-history", "--id", strconv.FormatInt(evs[2].ID, 10), "-o", "-")
	if code != 0 || !strings.Contains(out, `/home/dev/proj/main.go`) || strings.Contains(out, proj) || !strings.Contains(out, `expect = "allow"`) {
		t.Errorf("--id -o -: code %d %s %s", code, out, errs)
	}

	// The incident: a rule added after the fact; its call becomes a case
	// expecting the new rule's decision.
	os.WriteFile(filepath.Join(proj, ".warden", "rules", "team.toml"), []byte(
		"[[rule]]\nid = \"team.data:salaries\"\nmode = \"deny\"\npaths = [\"**/salaries.csv\"]\n"), 0o644)
	out, errs, code = runCLI(t, "policy", "test", "--from-history", "--rule", "team.data:salaries")
	if code != 0 || !strings.Contains(out, "added 1 cases") {
		t.Fatalf("--rule: code %d %s %s", code, out, errs)
	}
	b, _ = os.ReadFile(file)
	if !strings.Contains(string(b), `command = "cat /home/dev/proj/notes/salaries.csv"`) || !strings.Contains(string(b), `rule = "team.data:salaries"`) {
		t.Errorf("history.toml after --rule:\n%s", b)
	}

	// warden policy test runs the project's cases, the new ones too.
	out, errs, code = runCLI(t, "policy", "test", "--json")
	var results []struct {
		Name string `json:"name"`
		OK   bool   `json:"ok"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &results) != nil {
		t.Fatalf("policy test: code %d %s", code, errs)
	}
	n := 0
	for _, r := range results {
		if strings.HasPrefix(r.Name, file) {
			n++
			if !r.OK {
				t.Errorf("history case fails: %+v", r)
			}
		}
	}
	if n != 2 {
		t.Errorf("policy test ran %d history cases, want 2", n)
	}
}
