package policy

import (
	"path"
	"strings"
)

// A program given through a variable is unknown until it runs, except
// where the variable only says where a named tool is installed: the
// program is then that tool and its own rules judge it.
//   - "$UE_ROOT/Engine/Build/BatchFiles/RunUAT.sh", "$JAVA_HOME/bin/java":
//     an install root variable (…_HOME, …_ROOT, …_SDK, …_DIR) followed by
//     a literal path that names the program;
//   - "$UNITY_PATH", "${GODOT_BIN}": a variable named for a tool of the
//     table below and nothing else (…_PATH, …_BIN, …_EXE).
// Scratch roots ($TMPDIR/x.sh) and generic names ($CMD, $TOOL) stay unknown.

var installRootVar = re(`^\$\{?([A-Z][A-Z0-9_]*_(?:HOME|ROOT|SDK|DIR|INSTALL_DIR)|GOROOT|GOPATH)\}?(/[^$` + "`" + `]*)$`)

var toolPathVar = re(`^\$\{?([A-Z][A-Z0-9]*)_(?:PATH|BIN|EXE|CMD|EXECUTABLE)\}?$`)

// namedToolVars: the tools a …_PATH/_BIN/_EXE variable is commonly set
// to in build scripts and CI (game engines, DCC tools, runtimes).
var namedToolVars = map[string]bool{"UNITY": true, "UNREAL": true, "UE": true, "GODOT": true, "BLENDER": true, "JAVA": true,
	"PYTHON": true, "NODE": true, "MSBUILD": true, "DOTNET": true, "CMAKE": true, "NINJA": true, "CLANG": true, "GCC": true,
	"MAYA": true, "HOUDINI": true, "XCODEBUILD": true, "GRADLE": true, "MAVEN": true, "EMACS": true, "VSCODE": true}

// namedInstallProgram: raw is a program the variable only locates.
func namedInstallProgram(raw string) bool {
	if m := installRootVar.FindStringSubmatch(raw); m != nil {
		if m[1] == "TMPDIR" || strings.HasPrefix(m[1], "TMP") || strings.HasPrefix(m[1], "TEMP") {
			return false
		}
		b := path.Base(m[2])
		return b != "" && b != "/" && b != "." && !strings.ContainsAny(b, "*?[")
	}
	if m := toolPathVar.FindStringSubmatch(raw); m != nil {
		return namedToolVars[m[1]]
	}
	return false
}
