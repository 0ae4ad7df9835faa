package policy

import "strings"

// A directory given to git checkout or git restore as a pathspec
// (git checkout -- src/, git restore missions/, git checkout HEAD --
// docs/) puts back every file under it: every uncommitted change there
// is lost, as with checkout -- . on the whole tree. Only a pathspec the
// line shows as a folder (a trailing slash; a branch name cannot end in
// one) is read so: one named file (checkout -- src/main.go) stays a
// single file's loss, which core.git:lose-work asks about.
func checkoutDiscardsDir(c *Cmd) bool {
	if len(c.Pos) < 2 {
		return false
	}
	for _, p := range c.Pos[1:] {
		if len(p) > 1 && strings.HasSuffix(p, "/") && !strings.Contains(p, "://") && !strings.HasPrefix(p, "-") {
			return true
		}
	}
	return false
}
