package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Writes that land in the user's data under home (zone home-data: any
// folder under ~ that is not the project, a dot-folder, temp or a cache).
// A file put there replaces whatever the user kept under that name — an
// export over last week's export, a converted copy over the original, a
// move that renames a folder other things point at — and nothing keeps
// the old one. So the verdict table asks (overwrite · home data → ask),
// whatever program writes it: the tool tables give the target (cp/mv's
// last argument, -o, --outdir, a converter's last operand: tools.txt
// out=). A copy or move into a folder there asks the same way
// (core.zones:home-data-place); replacing a file that by its name is the
// one the user keeps — a database, a master, a final, golden or published
// copy — is denied (core.zones:home-data-replace).
//
// What stays allowed, because it makes something new rather than
// replacing what the user kept (freshHomeOutput):
//   - a download (curl -o, wget -P ~/Downloads, aria2c -d): a fetched file
//     has its own name, and the user asked for it;
//   - an archive unpacked into a folder (tar -x -C ~/src/x, unzip -d):
//     core.zones:extract-over judges unpacking over home itself;
//   - a file in a scratch or output folder below home (~/tmp, …/dist, …/out);
//   - a file or folder the same line made first (mkdir -p ~/x && cp a ~/x/);
//   - a copy under a backup name (cp ~/a.db ~/a.db.bak): the original stays.
// Creating folders, clones and installs (mkdir -p ~/x, git clone … ~/src/x,
// go install, pip install --user) are writes, not overwrites: allowed.

// homeFetchers save what they download under a name of their own.
var homeFetchers = map[string]bool{"curl": true, "wget": true, "aria2c": true, "axel": true, "yt-dlp": true, "youtube-dl": true, "gdown": true, "http": true, "xh": true}

// homeUnpackers write an archive's files into the folder they are given.
var homeUnpackers = map[string]bool{"tar": true, "bsdtar": true, "gtar": true, "unzip": true, "7z": true, "7za": true, "7zz": true, "cpio": true, "unrar": true}

// homePlacers copy or move files into a folder (core.zones:home-data-place).
// rsync is left out: a folder synced into home is a mirror, updated in place.
var homePlacers = map[string]bool{"cp": true, "mv": true, "install": true, "scp": true, "ditto": true}

// backupNameSuffixes name a copy kept beside the original.
var backupNameSuffixes = []string{".bak", ".orig", ".old", ".backup", ".save", "~"}

// freshHomeOutput: tc, an overwrite or a copy into a folder of the user's
// home data, makes something new rather than replacing what the user
// kept (see above).
func freshHomeOutput(e *Env, tc callfacts.Touch) bool {
	if tc.Zone != callfacts.ZoneHomeData || tc.Effect != callfacts.PathOverwrite && tc.Effect != callfacts.PathWrite || e.F.Home == "" {
		return false
	}
	rel, ok := strings.CutPrefix(tc.Path, e.F.Home+"/")
	if !ok {
		return false
	}
	prog := viaProgram(tc.Via)
	if homeFetchers[prog] || homeUnpackers[prog] {
		return true
	}
	if homeScratchFolder(path.Dir(rel)) || writtenBefore(e, tc) || removedAfter(e, tc) || onUserPath(rel) {
		return true
	}
	switch prog {
	case "mv":
		return homeScratchFolder(rel) // mv ~/x/build ~/x/build.bak: build output set aside
	case "cp", "rsync", "install", "ditto":
		if homeScratchFolder(rel) {
			return true
		}
		for _, s := range backupNameSuffixes {
			if strings.HasSuffix(rel, s) {
				return true
			}
		}
		for _, w := range strings.FieldsFunc(strings.ToLower(path.Base(rel)), func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == ' ' }) {
			if w == "backup" || w == "bak" {
				return true // cp -r ~/.claude/hooks ~/hooks-backup
			}
		}
	case "dd":
		return strings.Contains(tc.Via, " if=/dev/") // a disk read into an image file: a new copy
	}
	return false
}

// removedAfter: the same line deletes the file it wrote (echo x > ~/probe
// && cat ~/probe && rm ~/probe): a probe, gone again.
func removedAfter(e *Env, tc callfacts.Touch) bool {
	for _, w := range e.Touches() {
		if w.Path == tc.Path && w.Effect == callfacts.PathDelete && w.Via != tc.Via {
			return true
		}
	}
	return false
}

// onUserPath: rel (under home) is in a folder of programs on the user's
// PATH (~/.local/bin, ~/bin): a program installed there is the user's
// own install, judged by core.zones:path-shadow when it shadows a system
// command.
func onUserPath(rel string) bool {
	d := path.Dir(rel)
	return d == ".local/bin" || d == "bin"
}

// keptWords, in a file's name (split at - _ . and spaces), say it is the
// copy the user keeps: replacing it loses the one that counted.
var keptWords = map[string]bool{"master": true, "final": true, "golden": true, "published": true, "signed": true, "original": true}

// keptFolderWords name folders of such copies.
var keptFolderWords = map[string]bool{"masters": true, "originals": true}

// keptDataExts are databases: a whole collection in one file.
var keptDataExts = map[string]bool{".db": true, ".sqlite": true, ".sqlite3": true, ".anki2": true, ".kdbx": true, ".gnucash": true,
	".sdb": true, ".mdb": true, ".accdb": true, ".realm": true, ".fdb": true}

// keptArtifact names what in the path at p (relative to home) says the
// file is the user's kept copy, "" for nothing.
func keptArtifact(rel string) string {
	base := path.Base(rel)
	if keptDataExts[strings.ToLower(path.Ext(base))] {
		return "a database"
	}
	split := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == ' ' })
	}
	for _, w := range split(strings.TrimSuffix(base, path.Ext(base))) {
		if keptWords[w] {
			return "the " + w + " copy"
		}
	}
	for _, d := range strings.Split(path.Dir(rel), "/") {
		for _, w := range split(d) {
			if keptFolderWords[w] {
				return "one of the " + w
			}
		}
	}
	return ""
}

// appDataFile: p is in an application's data folder under home
// (~/.local/share/APP/…): the user's collection kept by that program.
func appDataFile(p, home string) (string, bool) {
	return strings.CutPrefix(p, home+"/.local/share/")
}

// homeRenamers rename the files they are given by an expression.
var homeRenamers = map[string]bool{"rename": true, "prename": true, "perl-rename": true, "file-rename": true, "rename.ul": true}

// homeRenamerNames are homeRenamers' names, the rename rules' Cmds.
var homeRenamerNames = []string{"rename", "prename", "perl-rename", "file-rename", "rename.ul"}

func homeWriteRules() []Rule {
	return []Rule{
		{ID: "core.zones:home-data-replace", Mode: Deny, Tools: shellTools,
			// it reads nothing but Touches in home data or home config
			On:   Trigger{Facts: FactTouch, zones: zonesOf(callfacts.ZoneHomeData, callfacts.ZoneHomeConfig)},
			Desc: "Replacing a file of the user's home data that by its name is the copy they keep (a database, a master, a final, golden or published copy): the one that counted is gone, with no undo",
			Match: func(e *Env) string {
				if e.F.Home == "" {
					return ""
				}
				for _, tc := range e.Touches() {
					if tc.Effect != callfacts.PathOverwrite || freshHomeOutput(e, tc) {
						continue
					}
					var rel string
					switch tc.Zone {
					case callfacts.ZoneHomeData:
						rel = strings.TrimPrefix(tc.Path, e.F.Home+"/")
					case callfacts.ZoneHomeConfig:
						r, ok := appDataFile(tc.Path, e.F.Home)
						if !ok || !keptDataExts[strings.ToLower(path.Ext(r))] {
							continue
						}
						rel = r
					default:
						continue
					}
					if k := keptArtifact(rel); k != "" {
						return tc.Via + " replaces " + homeRel(tc.Path, e.F.Home) + ", " + k + " of the user's under home: what it held is gone, with no undo"
					}
				}
				return ""
			},
			Catch: []string{"cp build/out.img ~/images/pi-golden.img", "cp fixtures/empty.sqlite ~/.local/share/Joplin/database.sqlite",
				"darktable-cli raw/x.nef ~/Photos/Portfolio/x_final.jpg", "mv /tmp/new.kdbx ~/Documents/passwords.kdbx", "ffmpeg -y -i /tmp/mix.wav ~/Music/masters/set01.flac"},
			Allow: []string{"cp ~/Documents/passwords.kdbx ~/Documents/passwords.kdbx.bak", "cp ~/.local/share/Joplin/database.sqlite ./fixtures/",
				"curl -o ~/Downloads/final.pdf https://example.com/final.pdf", "pandoc a.md -o /tmp/final.pdf", "cp out/final.pdf ~/tmp/final.pdf"}},
		{ID: "core.zones:home-data-place", Mode: Ask, Tools: shellTools,
			// it reads nothing but Touches in home data
			On:   Trigger{Facts: FactTouch, zones: zonesOf(callfacts.ZoneHomeData)},
			Desc: "Copying or moving files into a folder of the user's home data: a file of the same name there is replaced, with no undo",
			Match: func(e *Env) string {
				for _, tc := range e.Touches() {
					if tc.Effect != callfacts.PathWrite || tc.Zone != callfacts.ZoneHomeData || !homePlacers[viaProgram(tc.Via)] || freshHomeOutput(e, tc) {
						continue
					}
					return tc.Via + " puts files into " + homeRel(tc.Path, e.F.Home) + ", a folder of the user's under home: a file of the same name there is replaced"
				}
				return ""
			},
			Catch: []string{"cp dist/report.pdf ~/Documents/", "mv ~/Downloads/invoice.pdf ~/Finance/2024/", "cp -t ~/Music/Crates a.mp3 b.mp3"},
			Allow: []string{"cp ~/Documents/a.pdf ./docs/", "mkdir -p ~/Music/new && cp a.mp3 ~/Music/new/", "cp x.log ~/tmp/", "mv ~/Downloads/a.zip ./vendor/"}},
		{ID: "core.zones:home-data-rename", Mode: Ask, Tools: shellTools, Cmds: homeRenamerNames,
			Desc: "Renaming the user's files under home by an expression (rename 's/ /_/g' ~/Docs/*): what other files and programs call them by is gone; over a glob, denied",
			Match: func(e *Env) string {
				if e.F.Home == "" {
					return ""
				}
				if c, p := homeRenamed(e, false); c != nil {
					return c.String() + " renames " + homeRel(p, e.F.Home) + ", the user's files under home"
				}
				return ""
			},
			Catch: []string{"rename 's/\\.jpeg$/.jpg/' ~/Pictures/IMG_0001.jpeg", "prename -v 'y/A-Z/a-z/' ~/Music/Album/Track01.MP3", "cd ~/Documents && rename 's/ /_/' \"Tax Return.pdf\""},
			Allow: []string{"rename -n 's/ /_/g' ~/Documents/*.pdf", "rename 's/ /_/g' ./assets/*.png", "rename 's/x/y/' /tmp/out/*.txt"}},
		{ID: "core.zones:home-data-rename-all", Mode: Deny, Tools: shellTools, Cmds: homeRenamerNames,
			Desc: "Renaming every file of a glob of the user's home data by an expression: a bulk change nothing records, so nothing undoes it",
			Match: func(e *Env) string {
				if e.F.Home == "" {
					return ""
				}
				if c, p := homeRenamed(e, true); c != nil {
					return c.String() + " renames every file of " + homeRel(p, e.F.Home) + ", the user's files under home, at once"
				}
				return ""
			},
			Catch: []string{"rename 's/ /_/g' ~/Documents/Scans/*.pdf", "file-rename 'y/A-Z/a-z/' ~/Music/Crates/*.MP3", "perl-rename 's/^/2024-/' ~/Pictures/Trip/*.jpg"},
			Allow: []string{"rename -n 's/ /_/g' ~/Documents/Scans/*.pdf", "rename 's/ /_/g' assets/*.png", "rename 's/ /_/g' ~/Documents/Scans/one.pdf", "rename 's/x/y/' ~/tmp/*.log"}},
	}
}

// homeRenamed finds a renamer (rename, prename…, not a dry run or help)
// whose operand is a file of the user's home data outside scratch
// folders, and returns it with that path; with globOnly, only an operand
// that is a glob counts.
func homeRenamed(e *Env, globOnly bool) (*Cmd, string) {
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if !homeRenamers[c.Name] || c.Has("-n", "--dry-run", "--nono", "--just-print", "--no-act", "-h", "--help", "-V", "--version") || len(c.Pos) < 2 {
			continue
		}
		for _, a := range c.Pos[1:] {
			p := callfacts.NormPath(a, c.Dir, e.F.Home)
			if (!globOnly || globbed(a)) && callfacts.ZoneOf(p, e.F.Home, e.F.Project) == callfacts.ZoneHomeData && !homeScratchFolder(path.Dir(strings.TrimPrefix(p, e.F.Home+"/"))) {
				return c, p
			}
		}
	}
	return nil, ""
}
