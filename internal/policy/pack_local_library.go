package policy

import "strings"

// Library managers keep the user's own collections in home — a music
// library, a task list, an e-book library, bookmarks, a time log — and
// delete from them by a query, not by a path: no file is on the line for
// the zone table to judge. Their delete is the user's data deleted
// (delete · home data: ask); a query deleting the files on disk without
// the tool's own confirmation (beet remove -d -f album:x) may take any
// number of them (as a recursive delete of home data: deny).

// libraryDelete says whether c deletes from a library (hit) and whether
// it deletes files on disk in bulk without confirmation (bulk).
type libraryDelete func(c *Cmd) (hit, bulk bool)

func posAny(c *Cmd, words ...string) bool {
	for _, p := range c.Pos {
		for _, w := range words {
			if p == w {
				return true
			}
		}
	}
	return false
}

var libraryDeletes = map[string]libraryDelete{
	// beets: remove/rm drops items from the library; -d deletes their
	// files from disk, -f without asking first
	"beet": func(c *Cmd) (bool, bool) {
		if s := sub(c); s != "remove" && s != "rm" || !c.Has("-d", "--delete") {
			return false, false
		}
		return true, c.Has("-f", "--force")
	},
	// Taskwarrior: FILTER delete|purge, anywhere after the filter
	"task": func(c *Cmd) (bool, bool) { return posAny(c, "delete", "purge"), false },
	// Timewarrior: delete @N
	"timew": func(c *Cmd) (bool, bool) { return sub(c) == "delete", false },
	// calibre's library: remove deletes the books' files (--permanent
	// skips calibre's own trash)
	"calibredb": func(c *Cmd) (bool, bool) { return posAny(c, "remove", "remove_format"), false },
	// buku's bookmark database
	"buku": func(c *Cmd) (bool, bool) { return c.Has("-d", "--delete"), false },
	// jrnl's journal entries
	"jrnl": func(c *Cmd) (bool, bool) { return c.Has("--delete"), false },
}

var libraryProgs = func() []string {
	out := make([]string, 0, len(libraryDeletes))
	for n := range libraryDeletes {
		out = append(out, n)
	}
	return out
}()

func localLibraryRules() []Rule {
	return []Rule{
		cmdRule("core.zones:library-delete", Ask, "A library manager deleting from the user's own collection kept in home (beet remove -d, task … delete, calibredb remove, buku -d, timew delete, jrnl --delete): the user's data, picked by a query no path shows", libraryProgs,
			func(e *Env, c *Cmd) string {
				if storeOptScratch(e, c) {
					return "" // calibredb --with-library /tmp/test-library: a throwaway library
				}
				if f := libraryDeletes[c.Name]; f != nil {
					if hit, _ := f(c); hit {
						if strings.Contains(strings.Join(c.Args, " "), "://") {
							return c.Name + " deletes from a library on a server (" + strings.TrimSpace(c.String()) + "): data others keep"
						}
						return c.Name + " deletes from the user's own library (" + strings.TrimSpace(c.String()) + "): the user's data, kept in home"
					}
				}
				return ""
			},
			[]string{"beet remove -d title:x", "task 42 delete", "calibredb remove 17", "buku -d 5", "timew delete @3"},
			[]string{"beet ls title:x", "beet remove title:x --help", "task list", "calibredb list", "buku -p 5", "timew summary"}),
		cmdRule("core.zones:library-delete-bulk", Deny, "A library manager told to delete the files its query matches from disk without its own confirmation (beet remove -d -f album:x): any number of the user's files", libraryProgs,
			func(e *Env, c *Cmd) string {
				if storeOptScratch(e, c) {
					return ""
				}
				if f := libraryDeletes[c.Name]; f != nil {
					if hit, bulk := f(c); hit && bulk {
						return c.Name + " deletes the files its query matches from the user's library on disk, without asking: " + strings.TrimSpace(c.String())
					}
				}
				return ""
			},
			[]string{"beet remove -d -f album:x", "beet rm -d -f artist:y", "beet remove --delete --force year:2019"},
			[]string{"beet remove -f album:x", "beet remove -d album:x", "beet ls -a album:x"}),
	}
}
