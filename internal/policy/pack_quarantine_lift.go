package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// fileProtections are the programs whose host-protection switch acts on
// the files it names (xattr -d com.apple.quarantine APP): the quarantine
// flag guards what came from elsewhere, so lifting it from the project's
// own build output (build/Release/MyApp.app) switches nothing off.
var fileProtections = map[string]bool{"xattr": true}

// projectOwnFiles reports whether c is a per-file protection switch whose
// files all lie in the project (not /Applications, not ~/Downloads).
func projectOwnFiles(e *Env, c *Cmd) bool {
	if !fileProtections[c.Name] || e.F.Project == "" || e.F.Project == e.F.Home || e.F.Project == "/" {
		return false
	}
	n := 0
	for _, a := range c.Pos {
		if !strings.Contains(a, "/") && !strings.HasSuffix(a, ".app") {
			continue // the attribute's name (com.apple.quarantine)
		}
		if callfacts.UnknownValue(a) || strings.HasPrefix(a, "~") || !within(e.abs(c, a), e.F.Project) {
			return false
		}
		n++
	}
	return n > 0
}
