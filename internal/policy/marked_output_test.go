package policy

import (
	"testing"
)

// A top-level directory a tool tagged as its output (CACHEDIR.TAG,
// COLCON_IGNORE, CMakeCache.txt, pyvenv.cfg, a colcon install space) is
// build output whatever its name; the same name without the marker is
// still the project's source.
func TestMarkedOutputDirs(t *testing.T) {
	files := map[string]string{"lib/": ""}
	for dir, marker := range map[string]string{"cmake-rel": "CMakeCache.txt", "py311": "pyvenv.cfg", "ws-install": "local_setup.bash", "bundle-cache": "CACHEDIR.TAG", "colcon-logs": "COLCON_IGNORE"} {
		files[dir+"/"+marker] = ""
	}
	home, project := tempProject(t, files)
	e := TestEngine(Builtin(), nil, Options{})
	for cmd, want := range map[string]bool{
		"rm -rf cmake-rel": false, "rm -rf py311": false, "rm -rf ws-install": false, "rm -rf bundle-cache": false, "rm -rf colcon-logs": false,
		"rm -rf lib": true, "rm -rf install": true, "rm -rf build install": false,
	} {
		res, _ := evalIn(t, e, cmd, home, project)
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
	home, project := tempProject(t, map[string]string{"package.json": `{"scripts":{"build":"tsc","prisma":"echo generated"}}`})
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
		res, got := evalIn(t, e, cmd, home, project)
		if got != want {
			t.Errorf("%s: %s, want %s (%+v)", cmd, got, want, res.Hits)
		}
	}
}
