package callfacts

import (
	"path"
	"strings"
)

// A target under a variable the line does not set ("$BACKUP_DIR/staging")
// hides where it is; the only hints left are the variable's name and the
// name under it. A build or scratch name on either side says what is
// deleted is output a build remakes ("$BUILD_DIR/out", "$REPO/dist"); a
// name that says data ("$DATA_DIR/interim", "$BACKUP_DIR/staging") or
// says nothing leaves the target as unknown as the variable itself.

// scratchWords are the parts of a variable's name, or of the path under
// it, that say build output or scratch space.
var scratchWords = []string{"build", "out", "dist", "tmp", "temp", "cache", "target", "scratch", "artifact", "coverage"}

// scratchNames are the build and dependency directories a path under an
// unknown variable may end in, remade by the next build.
var scratchNames = map[string]bool{"node_modules": true, "__pycache__": true, ".pytest_cache": true, ".venv": true, "venv": true,
	".tox": true, ".next": true, ".nuxt": true, ".gradle": true, ".turbo": true, "site": true, "_site": true, "_build": true,
	".terraform": true, "DerivedData": true, "Pods": true, ".build": true, "logs": true, "log": true, "reports": true}

// scratchUnder reports whether an unknown target names build output or
// scratch space: by the variable that roots it or by its own last name.
func scratchUnder(p string) bool {
	if scratchName(path.Base(strings.TrimSuffix(p, "/*"))) {
		return true
	}
	i := strings.IndexByte(p, '$')
	if i < 0 {
		return false
	}
	name := strings.TrimPrefix(p[i+1:], "{")
	if j := strings.IndexFunc(name, func(r rune) bool {
		return !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}); j >= 0 {
		name = name[:j]
	}
	for _, part := range strings.Split(strings.ToLower(name), "_") {
		for _, w := range scratchWords {
			if strings.HasPrefix(part, w) {
				return true // BUILD_DIR, OUTDIR, BUILDDIR, TMP, DEPLOY_OUT, CACHE_ROOT
			}
		}
	}
	return false
}

// scratchName: a last path name that reads as build output or scratch
// (dist, build-2, tmp, .cache, node_modules).
func scratchName(b string) bool {
	if scratchNames[b] {
		return true
	}
	l := strings.TrimPrefix(strings.ToLower(b), ".")
	for _, w := range scratchWords {
		if strings.HasPrefix(l, w) {
			return true
		}
	}
	return false
}
