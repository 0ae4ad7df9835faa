package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Losing the user's data under home in bulk or with no undo, by forms
// other than rm -rf of a path:
//   - a listing or search of the user's files fed to a deleter
//     (notmuch search --output=files tag:spam | xargs rm, git -C ~/src/x
//     ls-files --others | xargs rm, locate '*.bak' | while read f; do rm
//     "$f"; done): every file the listing names is gone at once;
//   - a statement on an application's database under home that removes
//     rows for good (DELETE then VACUUM, DELETE/UPDATE with no WHERE,
//     DROP TABLE);
//   - a version-control tool's discard of a whole tree's uncommitted
//     work (p4 revert //ws/..., svn revert -R ., hg revert --all, hg
//     update -C, git annex drop --force): the edits (or the only copy)
//     exist nowhere else.
// The same in the project, temp or a cache, dry runs (-n, --dry-run)
// and one named file stay with the other rules.

// homeListers list the user's own files from an index of home (mail,
// desktop search): what they print is the user's data wherever it is.
var homeListers = map[string]bool{"notmuch": true, "mu": true, "mdfind": true, "locate": true, "plocate": true, "mlocate": true, "tracker3": true, "tracker": true,
	"recoll": true, "recollq": true, "baloosearch": true, "baloosearch6": true, "fsearch": true}

// homeDataPathText finds a path under home written inside an argument
// (sed 's|^|/home/dev/src/x/|', --work-tree=~/Mail).
var homeDataPathText = re(`(?:~|\$HOME|\$\{HOME\})/[^\s|'"]+|/home/[\w.-]+/[^\s|'"]+|/Users/[\w.-]+/[^\s|'"]+`)

// listedHomeData reports the home-data place a pipeline's producer
// lists, or "" when none does.
func listedHomeData(e *Env, ups []string) string {
	for i := range e.F.Commands {
		u := &e.F.Commands[i]
		if !contains(ups, u.Name) || fileDeleters[u.Name] || u.Name == "xargs" || u.Name == "parallel" {
			continue
		}
		if contentFilters[u.Name] {
			continue // grep -l PATTERN ~/x/*.csv | xargs rm: a chosen few, the zone table asks
		}
		if homeListers[u.Name] {
			if u.Name == "mu" && u.Sub(0) != "find" || u.Name == "notmuch" && u.Sub(0) != "search" {
				continue
			}
			return "the files " + u.Name + " finds in the user's own index"
		}
		places := append([]string{}, u.Args...)
		if u.Dir != "" && u.Dir != e.F.Cwd {
			places = append(places, u.Dir)
		}
		for _, a := range places {
			for _, ix := range homeDataPathText.FindAllStringIndex(a, -1) {
				p := e.abs(u, a[ix[0]:ix[1]])
				if callfacts.ZoneOf(p, e.F.Home, e.F.Project) == callfacts.ZoneHomeData && !homeScratchFolder(strings.TrimPrefix(p, e.F.Home+"/")) && !ownScratch(p) {
					return "the files " + u.Name + " lists under " + homeRel(p, e.F.Home)
				}
			}
		}
		if u.Dir != "" && u.Dir != e.F.Cwd {
			if callfacts.ZoneOf(u.Dir, e.F.Home, e.F.Project) == callfacts.ZoneHomeData && !homeScratchFolder(strings.TrimPrefix(u.Dir, e.F.Home+"/")) && !ownScratch(u.Dir) {
				return "the files " + u.Name + " lists in " + homeRel(u.Dir, e.F.Home)
			}
		}
	}
	return ""
}

func homeDataBulkRules() []Rule {
	return []Rule{
		cmdRule("core.local:home-data-listed-delete", Deny, "A listing or search of the user's own files under home fed to a deleter (notmuch search --output=files tag:spam | xargs rm, git -C ~/src/other ls-files --others | xargs rm -f, locate '*.bak' | while read f; do rm \"$f\"; done): every file it names is deleted at once, with no copy; the same over the project, temp or a cache stays allowed", []string{"rm", "shred", "unlink", "srm"},
			func(e *Env, c *Cmd) string {
				if onlyHelp(c) {
					return ""
				}
				ups := c.Upstream
				fed := len(ups) > 0 && slicesAny(c.Pos, func(a string) bool { return strings.Contains(a, "$") || strings.Contains(a, "{}") })
				if !fed {
					// while read f; do rm "$f"; done fed by the listing
					for _, r := range e.F.Cmds("read") {
						if len(r.Upstream) == 0 {
							continue
						}
						for _, v := range r.Pos {
							if slicesAny(c.Pos, func(a string) bool { return strings.Contains(a, "$"+v) || strings.Contains(a, "${"+v+"}") }) {
								fed, ups = true, r.Upstream
							}
						}
					}
				}
				if !fed && slicesAny(c.Pos, func(a string) bool { return strings.Contains(a, "$(…)") }) {
					// rm $(notmuch search …), for f in $(ls ~/x); do rm "$f": the
					// substitution's commands are the listing
					for i := range e.F.Commands {
						if u := &e.F.Commands[i]; u.Captured {
							fed, ups = true, append(ups, u.Name)
						}
					}
				}
				if !fed {
					return ""
				}
				if pickedOne(e, ups) {
					return "" // ls -t ~/x/*.ged | tail -n 1 | xargs rm: one file, asks
				}
				if what := listedHomeData(e, ups); what != "" {
					return c.Name + " deletes " + what + ": many of the user's files at once, with no undo"
				}
				return ""
			},
			[]string{"notmuch search --output=files tag:spam | xargs rm", "mu find --fields l maildir:/Trash | xargs -d '\\n' rm", "locate -i '*.part' | xargs rm -f",
				"git -C ~/src/other-app ls-files --others | sed 's|^|/home/dev/src/other-app/|' | xargs rm -f"},
			[]string{"notmuch search --output=files tag:spam | xargs ls -l", "git ls-files --others --exclude-standard | xargs rm -f", "ls ~/.cache/thumbnails | xargs -I{} rm ~/.cache/thumbnails/{}",
				"find /tmp/build -name '*.o' | xargs rm", "notmuch search --output=files tag:spam | wc -l"}),
		cmdRule("core.local:appdb-bulk-change", Deny, "A statement on an application's database under home that removes its rows for good: DELETE followed by VACUUM, DELETE or UPDATE with no WHERE, DROP TABLE (sqlite3 ~/.local/share/APP/x.db 'DELETE FROM notes …; VACUUM'): the user's records are gone and VACUUM leaves nothing to recover; one row's change asks, a database in the project or /tmp stays allowed", []string{"sqlite3", "sqlite", "duckdb", "spatialite", "litecli", "sqlite-utils"},
			func(e *Env, c *Cmd) string {
				if onlyHelp(c) {
					return ""
				}
				text := c.Heredoc
				for _, a := range c.Args {
					text += "\n" + a
				}
				if !appDBBulk(text) {
					return ""
				}
				for _, w := range c.Pos {
					if !dbFileExt.MatchString(w) || callfacts.UnknownValue(w) || strings.Contains(w, "\n") {
						continue
					}
					p := e.abs(c, w)
					if z := callfacts.ZoneOf(p, e.F.Home, e.F.Project); z == callfacts.ZoneHomeData || z == callfacts.ZoneHomeConfig {
						return c.Name + " removes rows of " + homeRel(p, e.F.Home) + " for good, an application's data under home"
					}
				}
				return ""
			},
			[]string{"sqlite3 ~/.local/share/Joplin/database.sqlite 'DELETE FROM notes WHERE is_conflict = 1; VACUUM;'", "sqlite3 ~/.config/app/history.db 'DELETE FROM visits'",
				"sqlite3 ~/Library/Application\\ Support/Bear/notes.sqlite <<'EOF'\nDROP TABLE ZSFNOTE;\nEOF"},
			[]string{"sqlite3 ~/.local/share/Joplin/database.sqlite 'SELECT count(*) FROM notes'", "sqlite3 db/dev.sqlite3 'DELETE FROM notes; VACUUM;'", "sqlite3 ~/.local/share/app/x.db 'VACUUM'"}),
		cmdRule("core.local:vcs-discard-tree", Deny, "A version-control tool's discard of a whole tree's uncommitted work (p4 revert //ws/..., svn revert -R ., hg revert --all --no-backup, hg update -C, hg purge, bzr revert --no-backup, git annex drop --force): edits that were never committed, or the only copy of annexed files, are gone; forms that keep backups (hg revert's .orig, bzr's .~1~, fossil undo) ask or stay allowed, and the dry-run forms (-n, --dry-run) stay allowed", []string{"p4", "svn", "hg", "chg", "bzr", "brz", "git"},
			func(e *Env, c *Cmd) string {
				if onlyHelp(c) || c.Has("-n", "--dry-run", "--dryrun", "--preview") {
					return ""
				}
				s := sub(c)
				if c.Name == "p4" && contains(c.Args, "revert") {
					s = "revert" // p4 -c WS -u USER revert: global options come first
				}
				switch c.Name {
				case "p4":
					if s == "revert" && !c.Has("-a", "-k") && slicesAny(c.Pos, func(a string) bool { return strings.Contains(a, "...") }) {
						return "p4 revert discards every open edit of " + c.Pos[len(c.Pos)-1]
					}
				case "svn":
					if s == "revert" && (c.Has("-R", "--recursive") || slicesAny(c.Args, func(a string) bool { return a == "infinity" || a == "--depth=infinity" })) {
						return "svn revert -R discards every uncommitted edit of the working copy"
					}
				case "hg", "chg":
					// hg revert keeps .orig backups unless --no-backup (-C)
					if s == "revert" && c.Has("--all", "-a") && c.Has("--no-backup", "-C") || (s == "update" || s == "up" || s == "checkout" || s == "co") && c.Has("-C", "--clean") || (s == "purge" || s == "clean") && !c.Has("-p", "--print") {
						return "hg " + s + " discards the working copy's uncommitted changes"
					}
				case "bzr", "brz":
					// bzr revert keeps .~1~ backups unless told not to
					if s == "revert" && c.Has("--no-backup") {
						return c.Name + " revert --no-backup discards the tree's uncommitted changes with no backup"
					}
				case "git":
					if s == "annex" && c.Sub(1) == "drop" && c.Has("--force") {
						return "git annex drop --force drops annexed content without checking another copy exists"
					}
				}
				return ""
			},
			[]string{"p4 revert //depot/main/...", "svn revert -R .", "hg revert --all --no-backup", "hg update -C default", "bzr revert --no-backup", "git annex drop --force photos/"},
			[]string{"p4 revert -n //depot/main/...", "p4 revert -a //depot/main/...", "svn revert src/main.c", "hg revert --all", "hg revert --all --dry-run", "hg update default", "git annex drop photos/", "svn status", "p4 opened"}),
	}
}

// appDBBulk reports whether SQL text removes rows for good: DELETE and
// VACUUM together, DELETE FROM or UPDATE … SET with no WHERE in its
// statement, or DROP TABLE.
func appDBBulk(text string) bool {
	if !sqlChange.MatchString(text) {
		return false
	}
	up := strings.ToUpper(text)
	if strings.Contains(up, "DROP TABLE") || strings.Contains(up, "DELETE") && strings.Contains(up, "VACUUM") {
		return true
	}
	for _, st := range strings.Split(up, ";") {
		st = strings.TrimSpace(st)
		if (strings.Contains(st, "DELETE FROM") || strings.Contains(st, "UPDATE ") && strings.Contains(st, " SET ")) && !strings.Contains(st, "WHERE") {
			return true
		}
	}
	return false
}

// contentFilters pick files by what they contain: their matches are a
// selection the user asked for, not a whole folder.
var contentFilters = map[string]bool{"grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true, "ack": true}

// pickedOne reports whether a head/tail stage of the pipeline keeps only
// one line (tail -n 1, head -1): one file is deleted, not many.
func pickedOne(e *Env, ups []string) bool {
	for i := range e.F.Commands {
		u := &e.F.Commands[i]
		if (u.Name != "head" && u.Name != "tail") || !contains(ups, u.Name) {
			continue
		}
		for j, a := range u.Args {
			if a == "-1" || a == "-n1" || a == "-n" && j+1 < len(u.Args) && u.Args[j+1] == "1" || a == "--lines=1" {
				return true
			}
		}
	}
	return false
}

func slicesAny(xs []string, f func(string) bool) bool {
	for _, x := range xs {
		if f(x) {
			return true
		}
	}
	return false
}
