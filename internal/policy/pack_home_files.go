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
//     still there, only elsewhere; a move to /dev/null is a delete;
//   - an archive or package file the same line unpacked or installed first
//     (unzip x.zip && rm x.zip).

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
	return homeScratchFolder(path.Dir(rel)) || callfacts.LeftoverName(path.Base(rel)) || writtenBefore(e, tc) || movedHere(e, tc) || unpackedBefore(e, tc)
}

// archiveUsers unpack an archive or install a package file: once they
// have run, the archive's content lives on where they put it.
var archiveUsers = map[string]bool{"tar": true, "bsdtar": true, "gtar": true, "unzip": true, "7z": true, "7za": true, "7zz": true,
	"unrar": true, "unar": true, "dpkg": true, "apt": true, "apt-get": true, "rpm": true, "dnf": true, "yum": true, "zypper": true,
	"installer": true, "flatpak": true, "snap": true, "pip": true, "pip3": true, "npm": true, "code": true}

// unpackedBefore: a command of the line before tc's unpacked or
// installed the file tc deletes (cd ~/Downloads && unzip x.zip && rm
// x.zip; sudo dpkg -i ~/Downloads/x.deb && rm ~/Downloads/x.deb): what
// the archive held is kept, the file itself is the download's husk.
func unpackedBefore(e *Env, tc callfacts.Touch) bool {
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c.String() == tc.Via {
			return false // reached the delete itself
		}
		if !archiveUsers[c.Name] || !unpacks(c) {
			continue
		}
		for _, a := range c.Args {
			if v, ok := strings.CutPrefix(a, "-f"); ok && v != "" {
				a = v // tar -fx.tar
			}
			if e.abs(c, a) == tc.Path {
				return true
			}
		}
	}
	return false
}

// unpacks: c, one of archiveUsers, unpacks or installs rather than lists
// or tests (tar -t, unzip -l, 7z l, dpkg -c).
func unpacks(c *Cmd) bool {
	switch c.Name {
	case "tar", "bsdtar", "gtar":
		return c.Has("-x", "--extract", "--get") || len(c.Args) > 0 && !strings.HasPrefix(c.Args[0], "--") && strings.Contains(c.Args[0], "x")
	case "unzip":
		return !c.Has("-l", "-t", "-v", "-Z", "-z")
	case "7z", "7za", "7zz", "unrar":
		return c.Sub(0) == "x" || c.Sub(0) == "e"
	case "unar":
		return true
	case "dpkg":
		return c.Has("-i", "--install")
	case "rpm":
		return c.Has("-i", "-U", "--install", "--upgrade") || hasShortFlag(c, 'i') || hasShortFlag(c, 'U')
	case "installer":
		return c.Has("-pkg")
	case "code":
		return c.Has("--install-extension")
	}
	return c.Sub(0) == "install" // apt install ./x.deb, pip install x.whl, flatpak install x.flatpakref
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
	if !strings.HasPrefix(tc.Via, "mv ") || movesAwayHomeData(e, tc) {
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
		return dst != "/dev/null" && !strings.Contains(dst, ":") && !trashDest(e.abs(c, dst), e.F.Home)
	}
	return false
}

// trashDest: dst is the desktop's trash (~/.local/share/Trash/files,
// ~/.Trash): a file moved there is deleted as trash-put deletes it, not
// moved to a place the user keeps it (the trash is emptied).
func trashDest(dst, home string) bool {
	if home == "" {
		return false
	}
	for _, t := range []string{"/.local/share/Trash", "/.Trash"} {
		if dst == home+t || strings.HasPrefix(dst, home+t+"/") {
			return true
		}
	}
	return false
}
