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

// generatedTop: a top-level directory of the project that is a build's
// output by where it sits or by its marker.
func generatedTop(e *Env, rel string) bool {
	return buildSpaces[rel] && deletesBuildTree(e) || markedOutput(path.Join(e.F.Project, rel))
}
