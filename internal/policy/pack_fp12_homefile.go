package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Deleting one of the user's files under home asks (zones.txt, delete ·
// home data): a document, a download, a picture or a notebook is the
// user's, not the agent's, and rm has no undo. What is under home but is
// not the user's keeping stays allowed, judged by where it is or what the
// line does with it:
//   - a file in a scratch or output folder below home (~/tmp/x, ~/scratch/a.log,
//     ~/code/other/dist/app.js, ~/Downloads/cache/x): remade or thrown away by kind;
//   - a leftover named by kind (.DS_Store, x.tmp, x.swp, x.part, x.crdownload);
//   - a file the same line wrote before deleting it (curl -o ~/x.tgz … && rm ~/x.tgz);
//   - a file moved to a place on this machine (mv ~/Downloads/a.zip .): it is
//     still there, only elsewhere; a move to /dev/null is a delete.

// homeScratchWords are the words of a folder's name (split at - _ . and
// spaces) that say scratch space or output a tool makes again.
var homeScratchWords = map[string]bool{"tmp": true, "temp": true, "scratch": true, "cache": true, "caches": true,
	"log": true, "logs": true, "trash": true, "build": true, "dist": true, "out": true, "target": true}

// keptHomeFile: tc, a single delete in the user's home data, removes
// nothing of the user's keeping (see above).
func keptHomeFile(e *Env, tc callfacts.Touch) bool {
	if tc.Effect != callfacts.PathDelete || tc.Zone != callfacts.ZoneHomeData || e.F.Home == "" {
		return false
	}
	rel := strings.TrimPrefix(tc.Path, e.F.Home+"/")
	if rel == tc.Path {
		return false
	}
	return homeScratchFolder(path.Dir(rel)) || callfacts.LeftoverName(path.Base(rel)) || writtenBefore(e, tc) || movedHere(e, tc)
}

// homeScratchFolder: a folder of rel (a path relative to home) is named
// as scratch space or build output.
func homeScratchFolder(rel string) bool {
	if rel == "." {
		return false
	}
	for _, d := range strings.Split(rel, "/") {
		if buildOutputName(d) || callfacts.ScratchDir(d) {
			return true
		}
		for _, w := range strings.FieldsFunc(strings.ToLower(d), func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == ' ' }) {
			if homeScratchWords[w] {
				return true
			}
		}
	}
	return false
}

// writtenBefore: a command of the line before tc created or replaced the
// same file, or made the folder it is in (mkdir); or a redirect of the
// line writes it (redirects come last in Touches, their order unknown,
// but replacing the file by one is allowed on its own).
func writtenBefore(e *Env, tc callfacts.Touch) bool {
	before := true
	for _, w := range e.Touches() {
		if w.Path == tc.Path && w.Via == tc.Via && w.Effect == tc.Effect {
			before = false // reached tc itself: later commands wrote after it
			continue
		}
		if !before && !strings.HasPrefix(w.Via, ">") {
			continue
		}
		if (w.Effect == callfacts.PathWrite || w.Effect == callfacts.PathOverwrite) && (w.Path == tc.Path || strings.HasPrefix(w.Via, "mkdir ") && under(tc.Path, w.Path)) {
			return true
		}
	}
	return false
}

// movedHere: tc's command is a move (mv) whose destination is a path on
// this machine other than /dev/null: the file is kept, elsewhere.
func movedHere(e *Env, tc callfacts.Touch) bool {
	if !strings.HasPrefix(tc.Via, "mv ") {
		return false
	}
	for _, c := range e.F.Cmds("mv") {
		if c.String() != tc.Via || len(c.Pos) < 2 {
			continue
		}
		dst := c.Pos[len(c.Pos)-1]
		if c.Has("-t", "--target-directory") {
			return true
		}
		return dst != "/dev/null" && !strings.Contains(dst, ":")
	}
	return false
}
