package policy

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A top-level directory a tool tagged as its output (CACHEDIR.TAG,
// COLCON_IGNORE, CMakeCache.txt, pyvenv.cfg, a colcon install space) is
// build output whatever its name; the same name without the marker is
// still the project's source.
func TestMarkedOutputDirs(t *testing.T) {
	home := filepath.ToSlash(t.TempDir())
	project := home + "/proj"
	for dir, marker := range map[string]string{"cmake-rel": "CMakeCache.txt", "py311": "pyvenv.cfg", "ws-install": "local_setup.bash", "bundle-cache": "CACHEDIR.TAG", "colcon-logs": "COLCON_IGNORE", "lib": ""} {
		if err := os.MkdirAll(filepath.Join(project, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if marker != "" {
			if err := os.WriteFile(filepath.Join(project, dir, marker), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	e := TestEngine(Builtin(), nil, Options{})
	for cmd, want := range map[string]bool{
		"rm -rf cmake-rel": false, "rm -rf py311": false, "rm -rf ws-install": false, "rm -rf bundle-cache": false, "rm -rf colcon-logs": false,
		"rm -rf lib": true, "rm -rf install": true, "rm -rf build install": false,
	} {
		call, err := CaseCall(cmd, home, project)
		if err != nil {
			t.Fatal(err)
		}
		res := e.Evaluate(context.Background(), Normalize(call))
		asked := false
		for _, h := range res.Hits {
			asked = asked || h.ID == "core.zones:project-source"
		}
		if asked != want {
			t.Errorf("%s: project-source hit %v, want %v (%+v)", cmd, asked, want, res.Hits)
		}
	}
}

// yarn/pnpm/bun X runs the package binary X when package.json has no
// script X: the binary's command is judged (yarn rimraf ~/Documents is
// rimraf ~/Documents); a script of that name is run instead.
func TestPackageBinRuns(t *testing.T) {
	home := filepath.ToSlash(t.TempDir())
	project := home + "/proj"
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	pkg := `{"scripts":{"build":"tsc","prisma":"echo generated"}}`
	if err := os.WriteFile(filepath.Join(project, "package.json"), []byte(pkg), 0o644); err != nil {
		t.Fatal(err)
	}
	e := TestEngine(Builtin(), nil, Options{})
	for cmd, want := range map[string]string{
		"yarn rimraf ~/Documents":                "deny",
		"pnpm --filter web del-cli ~/Pictures":   "deny",
		"bun rimraf ~/Music":                     "deny",
		"yarn prisma migrate reset --force":      "allow", // the script prisma runs, not the binary
		"yarn build":                             "allow",
		"yarn --cwd packages/api eslint --fix .": "allow",
		"yarn rimraf dist":                       "allow",
	} {
		call, err := CaseCall(cmd, home, project)
		if err != nil {
			t.Fatal(err)
		}
		res := e.Evaluate(context.Background(), Normalize(call))
		got := string(res.Decision)
		if got == "" || got == "audit" {
			got = "allow"
		}
		if got != want {
			t.Errorf("%s: %s, want %s (%+v)", cmd, got, want, res.Hits)
		}
	}
}
