package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Build output is decided by name (buildOutput), by the project's
// .gitignore, and here by two more signs: where the build put it and what
// the directory says of itself.
//
//   - A build's other spaces: colcon and catkin workspaces write build/,
//     install/, log/ and devel/ side by side; cmake --install --prefix
//     install does the same. install/ or devel/ deleted on the line that
//     deletes build/ is that build's output (rm -rf build/ install/ log/),
//     not a directory of install scripts.
//   - A marker file by which a tool tags a directory it made, whatever the
//     directory's name: CACHEDIR.TAG (the cache-directory standard cargo,
//     pip and others write), COLCON_IGNORE (colcon's build, install and log
//     bases), CMakeCache.txt (a CMake build tree), pyvenv.cfg (a virtual
//     environment), local_setup.bash (a colcon/catkin install or devel
//     space). Checked only for a directory about to be flagged.

//   - Remade on the line: vendor/ deleted on a line that vendors again
//     (rm -rf vendor && go mod vendor, composer install) is the tool's
//     output, remade from the lockfile.

// buildSpaces are written beside a build/ tree by the same build.
var buildSpaces = map[string]bool{"install": true, "devel": true, "log": true, "logs": true}

// outputMarkers are files a tool leaves in a directory it generated.
var outputMarkers = []string{"CACHEDIR.TAG", "COLCON_IGNORE", "CMakeCache.txt", "pyvenv.cfg", "local_setup.bash", "local_setup.sh"}

// markedOutput: dir holds a tool's marker of generated output.
func markedOutput(dir string) bool {
	for _, m := range outputMarkers {
		if fileExists(path.Join(dir, m)) {
			return true
		}
	}
	return false
}

// deletesBuildTree: the line deletes the project's top-level build/ too.
func deletesBuildTree(e *Env) bool {
	for _, tc := range e.Touches() {
		if tc.Effect == callfacts.PathRecursiveDelete && tc.Zone == callfacts.ZoneProject &&
			strings.TrimSuffix(tc.Path, "/") == e.F.Project+"/build" {
			return true
		}
	}
	return false
}

// remadeVendor: the line vendors the project's dependencies again.
func remadeVendor(e *Env) bool {
	for _, c := range e.F.Cmds("go", "composer") {
		if c.Name == "go" && sub(c) == "mod" && c.Sub(1) == "vendor" || c.Name == "composer" && (sub(c) == "install" || sub(c) == "update" || sub(c) == "i" || sub(c) == "u") {
			return true
		}
	}
	return false
}

// generatedTop: a top-level directory of the project that is a build's
// output by where it sits, by its marker, or because the line remakes it.
func generatedTop(e *Env, rel string) bool {
	return buildSpaces[rel] && deletesBuildTree(e) || rel == "vendor" && remadeVendor(e) || markedOutput(path.Join(e.F.Project, rel))
}

// onlyScratch: paths names at least one path, and each is a scratch
// directory of the project at its top (tmp/, .cache/, logs/): what
// git clean removes there is what the work left behind.
func onlyScratch(paths []string) bool {
	for _, p := range paths {
		p = strings.TrimSuffix(strings.TrimPrefix(p, "./"), "/")
		if p == "" || strings.ContainsAny(p, "/~$*") || strings.HasPrefix(p, "..") || !scratchName(p) {
			return false
		}
	}
	return len(paths) > 0
}

// subdirSpecs: git pathspecs that each name a directory below where git
// runs (tmp/, web/.cache), none the whole tree (., :/, *, ..).
func subdirSpecs(specs []string) bool {
	for _, p := range specs {
		p = strings.TrimPrefix(p, "./")
		if p == "" || p == "." || strings.HasPrefix(p, ":") || strings.HasPrefix(p, "..") || strings.HasPrefix(p, "/") || strings.ContainsAny(p, "*?[$~") {
			return false
		}
	}
	return len(specs) > 0
}
