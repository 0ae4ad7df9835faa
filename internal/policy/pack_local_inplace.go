package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A file of the user's home data rewritten in place. Writing a new file
// into home data is everyday work (an export, a download: the line cannot
// show that a file is there already); replacing the file a command reads
// by its edited self is not: the original — a photo's metadata, a
// thesis's PDF, a track's tags, a manuscript's text — is gone with no undo,
// exactly as if the single file had been deleted (delete · home data:
// ask). In bulk (a glob, find -exec's {}) it is the loss of the user's
// files (deny, as core.zones:home-data-rewrite judges a batch).
//
// The reading is by what a command does to its operands, not by program:
//   - batch editors told to edit in place (sed -i, perl/ruby -i, awk -i
//     inplace, vim -es … wq, ex, ed), unless the option keeps a backup
//     (sed -i.bak): a copy of the original stays;
//   - media rewriters (mogrify, jpegoptim, qpdf --replace-input, exiftool
//     -overwrite_original: rewriterTargets);
//   - tag and metadata editors, which write into the file they are given
//     when given a setting option (tagEditors);
//   - a command whose output is its input: the value of its output option
//     is also its input (bibtool -i f -o f), or its last two operands are
//     the same file (ocrmypdf f f, find -exec ocrmypdf {} {} \;);
//   - a result moved back over the file an earlier command of the line
//     read (sox ~/a.wav … /tmp/b.wav && mv /tmp/b.wav ~/a.wav);
//   - an encoder forced over the output it derives from its input (flac
//     -f ~/x.wav replaces ~/x.flac).

// tagEditor says whether a command of a metadata editor writes into its
// file operands (false: it only prints them).
type tagEditor func(c *Cmd) bool

// readOnlyFlags: a tag editor whose options are all among these prints.
func onlyFlags(c *Cmd, ok ...string) bool {
	for _, f := range c.Flags {
		found := false
		for _, o := range ok {
			if f == o {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// anyFlagPrefix reports whether one of c's options starts with one of ps.
func anyFlagPrefix(c *Cmd, ps ...string) bool {
	for _, f := range c.Flags {
		for _, p := range ps {
			if strings.HasPrefix(f, p) {
				return true
			}
		}
	}
	return false
}

// kid3Read are kid3-cli's commands that only read or move the cursor.
var kid3Read = re(`^\s*(get|ls|select|cd|pwd|help|timeout|exit|tag)\b`)

// exiv2Writes are exiv2's actions that change the image.
var exiv2Writes = map[string]bool{"rm": true, "delete": true, "mv": true, "rename": true, "in": true, "insert": true, "ad": true, "adjust": true, "mo": true, "modify": true, "fi": true, "fixiso": true, "fc": true, "fixcom": true}

// tagEditors by program name, lowercased as Cmd.Name is (AtomicParsley
// and eyeD3 are looked up as atomicparsley and eyed3).
var tagEditors = map[string]tagEditor{
	// FLAC's own editor: --set-tag, --remove-tag, --remove-all-tags,
	// --import-tags-from, --add-replay-gain…; --list and --show-* print.
	"metaflac": func(c *Cmd) bool {
		return anyFlagPrefix(c, "--set", "--remove", "--import", "--add", "--dont-use-padding", "--sort-padding")
	},
	// calibre's ebook-meta: every option but the ones that export sets
	// a field in the book.
	"ebook-meta": func(c *Cmd) bool {
		return len(c.Flags) > 0 && !onlyFlags(c, "--to-opf", "--get-cover", "--get-thumbnail", "--version", "-h", "--help")
	},
	// jhead rewrites the JPEG with any option but its listings.
	"jhead": func(c *Cmd) bool {
		return len(c.Flags) > 0 && !onlyFlags(c, "-v", "-se", "-c", "-exifmap", "-h", "-V", "-q", "-model", "-exonly", "-orp", "-orl", "-nofinfo")
	},
	// kid3-cli -c "set title x", -c "remove 2", -c "save": a command that
	// is not a read.
	"kid3-cli": func(c *Cmd) bool {
		for i, a := range c.Args {
			if a == "-c" && i+1 < len(c.Args) && !kid3Read.MatchString(c.Args[i+1]) {
				return true
			}
		}
		return false
	},
	"id3v2": func(c *Cmd) bool {
		return len(c.Flags) > 0 && !onlyFlags(c, "-l", "--list", "-L", "--list-frames", "-v", "--version", "-h", "--help")
	},
	"mid3v2": func(c *Cmd) bool {
		return len(c.Flags) > 0 && !onlyFlags(c, "-l", "--list", "-L", "--list-frames", "--list-genres", "--list-raw", "-v", "--verbose", "-q", "--quiet")
	},
	"id3tag": func(c *Cmd) bool { return len(c.Flags) > 0 },
	"eyed3": func(c *Cmd) bool {
		return len(c.Flags) > 0 && !onlyFlags(c, "-v", "--verbose", "-Q", "--quiet", "--no-color", "-l", "--log-level")
	},
	"opustags": func(c *Cmd) bool { return c.Has("-i", "--in-place") },
	"vorbiscomment": func(c *Cmd) bool {
		return c.Has("-w", "--write", "-a", "--append")
	},
	"mkvpropedit": func(c *Cmd) bool { return len(c.Flags) > 0 },
	"exiv2": func(c *Cmd) bool {
		return c.Has("-M", "-m") || len(c.Pos) > 0 && exiv2Writes[c.Pos[0]]
	},
	// AtomicParsley writes a temporary copy unless told --overWrite (-W).
	"atomicparsley": func(c *Cmd) bool { return c.Has("--overWrite", "--overwrite", "-W") },
	// bagit turns the folder it is given into a bag in place: every file
	// moves into data/ beside new manifests (--validate only checks).
	"bagit.py": func(c *Cmd) bool { return !c.Has("--validate") },
	"bagit":    func(c *Cmd) bool { return !c.Has("--validate") },
	// Inkscape told to export over the file it opened (--export-overwrite,
	// after --actions that edit the drawing): the original is replaced.
	"inkscape": func(c *Cmd) bool { return c.Has("--export-overwrite") },
}

// derivedForce: encoders that write their output beside their input under
// a name they derive, and the options that let them replace what is there.
var derivedForce = map[string][]string{"flac": {"-f", "--force"}, "opusenc": {}, "oggenc": {}}

// inplaceOutOpts are the options whose value is the file a command writes.
var inplaceOutOpts = map[string]bool{"-o": true, "--output": true, "--out": true, "-O": true, "--outfile": true, "--output-file": true, "-output": true}

// twinReaders take the same file twice and write nothing.
var twinReaders = map[string]bool{"diff": true, "cmp": true, "comm": true, "cat": true, "ls": true, "head": true, "tail": true, "grep": true, "wc": true, "stat": true, "file": true, "md5sum": true, "sha256sum": true, "sha1sum": true, "du": true, "cp": true, "mv": true, "ln": true, "rsync": true, "echo": true, "printf": true}

// backupSuffix: the in-place option keeps the original beside the edit
// (sed -i.bak, perl -pi.orig, --in-place=.bak).
var backupSuffix = re(`^-[a-zA-Z]*i[.~][A-Za-z0-9_~.-]*$|^--in-place=.`)

// writesBack: a vim/ex script that saves.
var writesBack = re(`(^|\|)\s*(w|wq|x|xa|xit|wqa|wall|update|exit|sav\w*)!?(\s|$|\|)`)

// inplaceTargets are the files c replaces by their edited selves.
func inplaceTargets(c *Cmd) []string {
	if t := rewriterTargets(c); len(t) > 0 {
		return t
	}
	if scripts, files := batchScript(c); len(files) > 0 {
		for _, a := range c.Args {
			if backupSuffix.MatchString(a) {
				return nil // a backup of each file is kept
			}
		}
		switch c.Name {
		case "vim", "vi", "nvim", "ex":
			saves := false
			for _, s := range scripts {
				if writesBack.MatchString(s) {
					saves = true
				}
			}
			if !saves {
				return nil
			}
		}
		return files
	}
	if ed := tagEditors[c.Name]; ed != nil && ed(c) {
		return fileOperands(c.Pos)
	}
	if _, files := c.FileEditRemove(); len(files) > 0 {
		return files // a file editor's remove (crudini --del, pdfcpu pages remove: verbs.txt edits)
	}
	if j := journalAppended(c); j != "" {
		return []string{j}
	}
	if opts, ok := derivedForce[c.Name]; ok && len(opts) > 0 && c.Has(opts...) {
		return fileOperands(c.Pos)
	}
	return nil
}

// journalAppended is the journal an accounting tool writes new
// transactions into (hledger -f ~/finance/2024.journal import bank.csv,
// hledger add): the -f file, the user's own when it is under home (a
// journal in the project is the work); "" for none or when no -f names it.
func journalAppended(c *Cmd) string {
	if c.Name != "hledger" {
		return ""
	}
	j := optJoined(c, "-f", "--file")
	for _, p := range c.Pos {
		if p == j {
			continue // -f's value, where the table does not set it aside
		}
		if p == "import" || p == "add" {
			return j
		}
		return ""
	}
	return ""
}

// fileOperands are the operands that name files.
func fileOperands(pos []string) []string {
	var out []string
	for _, p := range pos {
		if !strings.HasPrefix(p, "-") && (strings.ContainsAny(p, "/*?") || strings.Contains(p, ".") && callfacts.PathLike(p)) {
			out = append(out, p)
		}
	}
	return out
}

// sameFileOutput is the file c writes over its own input: the value of an
// output option also given as input, or the same file as its last two
// operands ("" for none).
func sameFileOutput(e *Env, c *Cmd) string {
	if twinReaders[c.Name] {
		return ""
	}
	for i, a := range c.Args {
		if !inplaceOutOpts[a] || i+1 >= len(c.Args) {
			continue
		}
		out := c.Args[i+1]
		for j, b := range c.Args {
			if j != i+1 && b == out && !inplaceOutOpts[b] {
				return out
			}
		}
	}
	if n := len(c.Pos); n >= 2 && c.Pos[n-1] == c.Pos[n-2] && strings.ContainsAny(c.Pos[n-1], "/.{") {
		return c.Pos[n-1]
	}
	return ""
}

// movedBack is the file of an earlier command of the line that a later
// mv or cp replaces with a result ("" for none): sox a … t && mv t a.
func movedBack(e *Env, j int) string {
	c := &e.F.Commands[j]
	if c.Name != "mv" && c.Name != "cp" || len(c.Pos) != 2 || c.Has("-t", "--target-directory") {
		return ""
	}
	src, dst := e.abs(c, c.Pos[0]), e.abs(c, c.Pos[1])
	if src == dst {
		return ""
	}
	for i := 0; i < j; i++ {
		b := &e.F.Commands[i]
		if b.Name == "mv" || b.Name == "cp" || b.Name == "ls" || b.Name == "test" || b.Name == "[" {
			continue
		}
		readDst, wroteSrc := false, false
		for _, a := range b.Args {
			switch e.abs(b, a) {
			case dst:
				readDst = true
			case src:
				wroteSrc = true
			}
		}
		if readDst && wroteSrc {
			return c.Pos[1]
		}
	}
	return ""
}

// homeInplace judges the line: the home-data file rewritten in place and
// whether it is a batch (a glob, find's {}), "" for none.
func homeInplace(e *Env) (string, bool) {
	home := func(c *Cmd, t string) (string, bool) {
		p := e.abs(c, t)
		if callfacts.ZoneOf(p, e.F.Home, e.F.Project) != callfacts.ZoneHomeData {
			return "", false
		}
		if rel := strings.TrimPrefix(p, e.F.Home+"/"); homeScratchFolder(rel) || ownScratch(rel) {
			return "", false // ~/scratch, ~/tmp, an output folder: not the user's to keep
		}
		return homeRel(p, e.F.Home), globbed(p) || strings.Contains(p, "{}")
	}
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if e.dryRun(c) {
			continue
		}
		for _, t := range inplaceTargets(c) {
			if r, bulk := home(c, t); r != "" {
				return c.Name + " rewrites " + r + " in place, the user's own file: the original is gone", bulk
			}
		}
		if t := sameFileOutput(e, c); t != "" {
			if r, bulk := home(c, t); r != "" {
				return c.Name + " writes its output over its input " + r + ", the user's own file", bulk
			}
		}
		if t := movedBack(e, i); t != "" {
			if r, bulk := home(c, t); r != "" {
				return c.Name + " moves a result back over " + r + ", the user's own file an earlier command read", bulk
			}
		}
	}
	return "", false
}

var inplaceProgs = func() []string {
	out := []string{"sed", "gsed", "perl", "ruby", "awk", "gawk", "vim", "vi", "nvim", "ex", "ed", "red", "emacs", "mv", "cp", "magick", "gm", "qpdf", "hledger"}
	for n := range mediaRewriters {
		out = append(out, n)
	}
	for n := range tagEditors {
		out = append(out, n)
	}
	for n := range derivedForce {
		out = append(out, n)
	}
	return append(out, callfacts.FileEditors()...)
}()

// localInplaceRules: a file of home data rewritten in place asks; a batch
// of them (a glob, find -exec's {}) is denied.
func localInplaceRules() []Rule {
	// the files are named under home: ~, $HOME, /home/…, /Users/…; a
	// command whose output is its input may be any program
	trig := On(0, inplaceProgs...).OrText("{}", " -o ", "--out")
	gate := func(e *Env) bool {
		c := e.F.Command
		return strings.Contains(c, "~") || strings.Contains(c, "HOME") || e.F.Home != "" && strings.Contains(c, e.F.Home) || strings.Contains(c, "{}")
	}
	return []Rule{
		{ID: "core.zones:home-data-edit", Mode: Ask, Tools: shellTools, On: trig,
			Desc: "A file of the user's home data rewritten in place: edited by a batch editor without a backup (sed -i, perl -pi, vim -es … wq), retagged or re-encoded over itself (metaflac --set-tag, exiftool -overwrite_original, qpdf --replace-input, jhead -autorot), written by a command whose output is its input (bibtool -i f -o f), or a result moved back over it: the original is gone, as if the file were deleted",
			Match: func(e *Env) string {
				if !gate(e) {
					return ""
				}
				r, _ := homeInplace(e)
				return r
			},
			Catch: []string{"metaflac --set-tag=ARTIST=x ~/Music/a.flac", "qpdf --replace-input --linearize ~/Thesis/final.pdf", "sed -i 's/a/b/' ~/notes/todo.md", "bibtool -s -i ~/Thesis/refs.bib -o ~/Thesis/refs.bib", "sox ~/Podcasts/a.wav -c 1 /tmp/b.wav && mv /tmp/b.wav ~/Podcasts/a.wav"},
			Allow: []string{"metaflac --list ~/Music/a.flac", "sed -i.bak 's/a/b/' ~/notes/todo.md", "qpdf --linearize ~/Thesis/final.pdf out/final.pdf", "sed -i 's/a/b/' notes/todo.md", "exiftool ~/Pictures/a.jpg", "sox ~/Podcasts/a.wav -c 1 /tmp/b.wav && mv /tmp/b.wav out/a.wav"}},
		{ID: "core.zones:home-data-edit-batch", Mode: Deny, Tools: shellTools, On: trig,
			Desc: "Files of the user's home data rewritten in place in bulk: a glob or find -exec's {} given to an in-place editor or to a command whose output is its input (find ~/Documents -name '*.pdf' -exec ocrmypdf {} {} \\;): every original is gone",
			Match: func(e *Env) string {
				if !gate(e) {
					return ""
				}
				if r, bulk := homeInplace(e); bulk {
					return r + ", in bulk"
				}
				return ""
			},
			Catch: []string{"find ~/Documents/papers -name '*.pdf' -exec ocrmypdf --force-ocr {} {} \\;", "metaflac --remove-all-tags ~/Music/Album/*.flac", "perl -pi -e 's/a/b/' ~/Documents/letters/*.txt"},
			Allow: []string{"find ~/Documents/papers -name '*.pdf' -exec ocrmypdf {} out/{} \\;", "metaflac --list ~/Music/Album/*.flac", "metaflac --set-tag=A=b ~/Music/Album/01.flac", "perl -pi -e 's/a/b/' docs/*.txt"}},
	}
}
