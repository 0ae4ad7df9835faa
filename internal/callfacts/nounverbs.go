package callfacts

import (
	_ "embed"
	"slices"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// nounVerbsText: the common verbs that say a change of an unknown
// program only after the noun they act on, and the nouns of what a tool
// keeps on this machine (nounverbs.txt).
//
//go:embed nounverbs.txt
var nounVerbsText string

type nounVerbTable struct {
	verbs, localNouns, hereNouns map[string]bool
	// apartVerbs: verbs read only as a word of their own (or in a
	// console's quoted command); ownNouns: nouns of the developer's own
	// things a start or a cancel acts on (nounverbs_weak.go)
	apartVerbs, ownNouns, soleVerbs map[string]bool
	// verbFirst: verbs read before their noun too (nounverbs.txt verb-first)
	verbFirst map[string]bool
}

var nounVerbs = sync.OnceValue(func() nounVerbTable {
	t := nounVerbTable{verbs: map[string]bool{}, localNouns: map[string]bool{}, hereNouns: map[string]bool{}, apartVerbs: map[string]bool{}, ownNouns: map[string]bool{}, soleVerbs: map[string]bool{}, verbFirst: map[string]bool{}}
	datatable.Must("nounverbs.txt", nounVerbsText, 2, func(l datatable.Line) error {
		m := map[string]map[string]bool{"verbs": t.verbs, "local-nouns": t.localNouns, "here-nouns": t.hereNouns, "apart-verbs": t.apartVerbs, "own-nouns": t.ownNouns, "sole-verbs": t.soleVerbs, "verb-first": t.verbFirst}[l.Fields[0]]
		if m == nil {
			return l.Errorf("list %q: want verbs, local-nouns, here-nouns, apart-verbs, own-nouns, sole-verbs or verb-first", l.Fields[0])
		}
		for _, w := range l.Fields[1:] {
			m[w] = true
		}
		return nil
	})
	return t
})

// hereOnlyVerbs: the verbs whose here-nouns keep them on this machine.
var hereOnlyVerbs = map[string]bool{"lock": true, "unlock": true}

// nounVerbChange names the change an unknown program's first words say
// by a common verb after the noun it acts on (items update, record set,
// volume resize, pr merge, monitor mute) or joined to one (resize-volume,
// upgradeCluster, update_record): "" for none, a read, check or
// explaining word among its words (ceph orch upgrade status, explain
// merge), a noun of the tool's own things on this machine (config set,
// plugins update, db migrate), or operands that are only file paths
// (patch apply fix.diff). Option values do not count among the first
// words (zorkctl --profile acme --region eu-west-1 items update 42).
func (c *Cmd) nounVerbChange() string {
	nv := nounVerbs()
	t := destroyVerbs()
	if sqlWords[c.Name] || nameReads(t, c.Name) {
		return "" // a SQL statement read as a command (UPDATE items SET …), ola_rdm_get
	}
	prev, verb := "", ""
	n := 0
	pos := c.verbPos()
	console := len(pos) != len(c.Pos) // a console's quoted command split into words
	for _, p := range pos {
		if optionValue(c.Args, p) {
			continue // a global option's value (--profile acme)
		}
		if n++; n > 4 {
			break
		}
		if strings.ContainsAny(p, "/=@ .$`") {
			break // an operand: a path, an address, a key=value
		}
		l := strings.ToLower(p)
		if t.reads[l] || t.neutral[l] || checkWords[l] || checkPhrase(l) {
			return "" // mytool preview update 42, explain merge
		}
		if strings.Trim(l, "abcdefghijklmnopqrstuvwxyz0123456789:_-") != "" {
			break
		}
		if nv.verbs[l] {
			if prev == "" && nv.verbFirst[l] && p == l {
				verb = verbThenNoun(c, nv, t, pos, l) // bs kill appsession 61
				break
			}
			if prev != "" && p == l && nounOK(nv, t, prev, l) && !weakOwnNoun(nv, prev, l) && (sendsFiles(l) || !c.fileOperandsOnly(p)) {
				verb = prev + " " + l // lower case: a CLI's words, not SQL's (SET)
			}
			break
		}
		if w := joinedNounVerb(nv, t, p, l); w != "" && (console || !nv.apartVerbs[w]) && !c.fileOperandsOnly(p) {
			verb = l
			break
		}
		prev = l
	}
	if verb == "" || slices.ContainsFunc(c.Pos, func(p string) bool {
		p = strings.ToLower(p)
		return t.reads[p] || checkWords[p] || checkPhrase(p)
	}) {
		return "" // a word after it asks how the act stands (ceph orch upgrade status, MoveTables … show)
	}
	return verb
}

// sqlWords: a SQL statement's first words, which a reading of code may
// take for a program's name (c.execute('UPDATE items SET …')).
var sqlWords = map[string]bool{"update": true, "insert": true, "select": true, "delete": true, "merge": true, "alter": true, "create": true, "upsert": true, "replace": true}

// nameReads: a part of the program's name reads (ola_rdm_get, acme-list,
// foo-status): what its words name is what it shows.
func nameReads(t verbTable, name string) bool {
	if !strings.ContainsAny(name, "-_") {
		return false
	}
	return slices.ContainsFunc(strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '-' || r == '_' }), func(w string) bool {
		if t.reads[w] || checkWords[w] {
			return true
		}
		for _, r := range []string{"print", "get", "show", "list", "dump", "read"} {
			if strings.HasPrefix(w, r) {
				return true // fw_printenv, getfattr-like names
			}
		}
		return false
	})
}

// stateWord: a part of a joined word that names a state, not an act
// (upgrade_available, update-pending, merge_enabled): the word is a
// setting's or variable's name.
func stateWord(p string) bool {
	for _, suf := range []string{"able", "ible", "ed", "ing"} {
		if len(p) > len(suf)+2 && strings.HasSuffix(p, suf) {
			return true
		}
	}
	return false
}

// optionValue: the argument before the first p in args is an option that
// may take it as its value (--profile acme); "--" ends the options, so
// the word after it is a command's own (vip dev-env exec -- wp …).
func optionValue(args []string, p string) bool {
	for i, a := range args {
		if a == p {
			return i > 0 && len(args[i-1]) > 1 && args[i-1][0] == '-' && args[i-1] != "--" && !(strings.HasPrefix(args[i-1], "--") && strings.Contains(args[i-1], "="))
		}
	}
	return false
}

// nounOK: noun is a resource's name the verb acts on: a plain word, no
// verb of its own, no noun of the tool's own things here.
func nounOK(nv nounVerbTable, t verbTable, noun, verb string) bool {
	if len(noun) < 2 || noun[0] < 'a' || noun[0] > 'z' || strings.Contains(noun, ":") {
		return false
	}
	if nv.verbs[noun] || nv.localNouns[noun] || t.accessNot[noun] || t.selfWords[noun] || hereOnlyVerbs[verb] && nv.hereNouns[noun] {
		return false
	}
	// a joined noun ends in what it names (release-notes, dev-server,
	// test-fixtures): its last part decides
	if i := strings.LastIndexAny(noun, "-_"); i > 0 && i < len(noun)-1 {
		last := noun[i+1:]
		first := noun[:strings.IndexAny(noun, "-_")]
		if nv.localNouns[last] || nv.localNouns[first] || hereOnlyVerbs[verb] && nv.hereNouns[last] || t.selfWords[first] {
			return false
		}
	}
	return true
}

// joinedNounVerb: w joins one of the verbs to a noun (resize-volume,
// upgrade_cluster, upgradeCluster, cluster:upgrade): the verb, "" when
// a part is a read, check or explaining word, the tool itself (self-
// update) or a noun of its own things here (update-deps, start-server).
func joinedNounVerb(nv nounVerbTable, t verbTable, w, l string) string {
	parts := camelParts(w)
	if parts == nil {
		if !strings.ContainsAny(l, ":-_") {
			return ""
		}
		parts = strings.FieldsFunc(l, func(r rune) bool { return r == ':' || r == '-' || r == '_' })
	}
	if len(parts) < 2 || len(parts) > 4 {
		return ""
	}
	verb := ""
	for _, p := range parts {
		switch {
		case t.reads[p] || t.neutral[p] || checkWords[p] || t.selfWords[p] || nv.localNouns[p] || t.accessNot[p] || stateWord(p) || p == "pre" || p == "post" || p == "on" || p == "if" || p == "all" || p == "auto" || p == "dry":
			return "" // update-check, self-update, update-deps, pre-merge, auto-merge
		case nv.verbs[p] && verb == "":
			verb = p
		}
	}
	if verb == "" || hereOnlyVerbs[verb] && slices.ContainsFunc(parts, func(p string) bool { return nv.hereNouns[p] }) {
		return ""
	}
	return verb
}

// fileOperandsOnly: every operand after the verb word v is a file's path
// (fix.diff, photos/a.png, ./out): the act is on files here. A URL, a
// host or a bare name (a resource's id) is not.
func (c *Cmd) fileOperandsOnly(v string) bool {
	k := slices.Index(c.Pos, v)
	if k < 0 || k+1 >= len(c.Pos) {
		return false
	}
	n := 0
	for _, p := range c.Pos[k+1:] {
		if optionValue(c.Args, p) {
			continue
		}
		if !filePath(p) {
			return false
		}
		n++
	}
	return n > 0
}

// filePath: p names a file or folder of this machine by its form: a
// path with a slash or a leading dot or tilde, or a name with a file
// extension (fix.diff, a.png), never a URL, an address or a host.
func filePath(p string) bool {
	if p == "" || strings.Contains(p, "://") || strings.ContainsAny(p, "@$`=") {
		return false
	}
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "~/") || p == "." {
		return !strings.HasPrefix(p, "/dev/")
	}
	if strings.Contains(p, "/") {
		return !strings.Contains(strings.SplitN(p, "/", 2)[0], ".") // a host's path (example.com/x) is no file
	}
	dot := strings.LastIndexByte(p, '.')
	if dot <= 0 || dot == len(p)-1 {
		return false
	}
	ext := strings.ToLower(p[dot+1:])
	return fileExts[ext]
}

// fileExts: extensions of the files a tool edits or converts here; a
// domain's last label (com, io, net) is none of them.
var fileExts = map[string]bool{"txt": true, "md": true, "json": true, "yaml": true, "yml": true, "toml": true, "csv": true, "tsv": true, "xml": true, "html": true, "pdf": true, "png": true, "jpg": true, "jpeg": true, "gif": true, "svg": true, "webp": true, "mp4": true, "mov": true, "mp3": true, "wav": true, "diff": true, "patch": true, "log": true, "zip": true, "tar": true, "gz": true, "ini": true, "cfg": true, "conf": true, "lock": true, "go": true, "py": true, "js": true, "ts": true, "rs": true, "java": true, "c": true, "h": true, "cpp": true, "sql": true, "db": true, "sqlite": true, "docx": true, "xlsx": true, "epub": true}

// wordCount is n counted on by the word p at index i of an unknown
// program's first words: a global option's value (zorkctl --profile acme
// --region eu-west-1 items delete 42) does not count, so a subcommand
// after several options is still among the first words; past the eighth
// word every word counts.
func wordCount(c *Cmd, n, i int, p string) int {
	if i < 8 && optionValue(c.Args, p) {
		return n
	}
	return n + 1
}

// forcedDestroyOption: f is a destroy verb made forceful (--force-reset,
// --hard-delete, --permanently-remove, -force-wipe): the option is the
// act, as --delete or --purge are.
func forcedDestroyOption(t verbTable, f string) bool {
	n := strings.TrimLeft(f, "-")
	if n == f || len(n) < 8 {
		return false
	}
	for _, pre := range []string{"force-", "hard-", "permanently-", "permanent-"} {
		if rest, ok := strings.CutPrefix(n, pre); ok {
			return t.verbs[rest]
		}
	}
	return false
}

// verbThenNoun: the first word l, a verb of nounverbs.txt verb-first, is
// followed by a plain noun of a shared thing (bs kill appsession 61,
// launch application -n X): "l noun", "" when no noun follows (pm2
// kill), it is an operand, a number or a file, or a noun of the tool's
// own things here.
func verbThenNoun(c *Cmd, nv nounVerbTable, t verbTable, pos []string, l string) string {
	for i, p := range pos {
		if p != l || i+1 >= len(pos) {
			continue
		}
		noun := pos[i+1]
		if optionValue(c.Args, noun) || noun != strings.ToLower(noun) || strings.Trim(noun, "abcdefghijklmnopqrstuvwxyz-_") != "" {
			return ""
		}
		if !nounOK(nv, t, noun, l) || nv.ownNouns[noun] || t.reads[noun] || t.neutral[noun] || checkWords[noun] {
			return ""
		}
		return l + " " + noun
	}
	return ""
}
