package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// movesAwayHomeData: tc, the source of a mv, takes more of the user's
// home data away from where they keep it than one file moved to a known
// place: what a find or a list picks (mv ~/Desktop/{} …, find ~/Downloads
// -name '*.pdf' -exec mv {} …: every match, unseen), a glob's matches, or
// a whole folder (mv ~/Desktop/renders ~/Desktop/old_renders: whatever
// points at it, the user's habits, scripts and links, finds nothing). A
// single named file moved somewhere on this machine stays movedHere's
// (pack_home_files.go); folders of scratch or output stay allowed.
func movesAwayHomeData(e *Env, tc callfacts.Touch) bool {
	if tc.Zone != callfacts.ZoneHomeData || e.F.Home == "" {
		return false
	}
	rel := strings.TrimPrefix(tc.Path, e.F.Home+"/")
	if rel == tc.Path || homeScratchFolder(rel) || ownScratch(rel) {
		return false
	}
	base := path.Base(rel)
	if strings.Contains(base, "{}") || strings.Contains(base, "$") || strings.ContainsAny(base, "*?[") {
		return true // a pick of find, xargs or a glob
	}
	if !strings.Contains(rel, "/") {
		return false // a file or folder straight in home: judged as before
	}
	return path.Ext(base) == "" && !strings.HasPrefix(base, ".") && !callfacts.LeftoverName(base)
}
