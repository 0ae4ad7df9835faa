package policy

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// tempProject makes a home with a project folder in it holding files
// (name → content; a name ending in "/" is a directory), for tests whose
// decision depends on what the project has on disk.
func tempProject(t *testing.T, files map[string]string) (home, project string) {
	t.Helper()
	home = filepath.ToSlash(t.TempDir())
	project = home + "/proj"
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, s := range files {
		p := filepath.Join(project, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if name[len(name)-1] == '/' {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return home, project
}

// evalIn evaluates cmd as a Bash call made in project with e, and says
// the decision the way a case does: "allow" for no decision or audit.
func evalIn(t *testing.T, e *Engine, cmd, home, project string) (*Result, string) {
	t.Helper()
	call, err := CaseCall(cmd, home, project)
	if err != nil {
		t.Fatal(err)
	}
	res := e.Evaluate(context.Background(), Normalize(call))
	got := string(res.Decision)
	if got == "" || got == "audit" {
		got = "allow"
	}
	return res, got
}
