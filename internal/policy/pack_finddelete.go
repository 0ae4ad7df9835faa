package policy

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// findDeleteRule asks before find or fd deletes, across the project, files
// a pattern selects when the pattern selects source rather than build
// output: `find . -name '*.go' -delete`, `-exec rm {} +`, `-execdir rm`,
// `| xargs rm`, `fd -e go -x rm`, a loop over find's output. One rm of a
// named file is routine (git has it); a pattern over the whole tree
// removes every match at once, uncommitted changes with them. Generated
// files (*.pyc, *.o, *.log, .DS_Store, __pycache__…), empty directories
// and deletes under build or scratch directories stay routine.
func findDeleteRule() Rule {
	return Rule{
		ID: "core.destroy:find-delete", Mode: Ask, Tools: shellTools, Cmds: []string{"find", "fd", "fdfind"},
		Desc: "find or fd deleting, across the project, the files a pattern selects when they are source rather than build output (find . -name '*.go' -delete, -exec rm {} +, | xargs rm, fd -e go -x rm)",
		Match: func(e *Env) string {
			if e.F.Project == "" || !finderDeletes(e.F) {
				return ""
			}
			return first(e.F.Cmds("find", "fd", "fdfind"), func(c *Cmd) string {
				starts, what := finderSelection(c)
				if what == "" {
					return ""
				}
				for _, s := range starts {
					if scratchVar(s) {
						continue // $TMPDIR/…: a scratch directory, whatever its value
					}
					p := e.abs(c, s)
					if scratchPath(p, e.F.Project, e.F.Home) || !under(p, e.F.Project) && !under(e.F.Project, p) {
						continue
					}
					return fmt.Sprintf("%s deletes %s under %s at once, uncommitted changes with them: list them with `%s … -print` first, then delete the ones you mean by name (or narrow the pattern to build output)",
						c.Name, what, homeRel(p, e.F.Home), c.Name)
				}
				return ""
			})
		},
		Catch: []string{"find . -name '*.go' -delete", "find . -name '*.go' -exec rm {} +", "find src -name '*.ts' -execdir rm -f {} \\;", "find . -name '*.go' | xargs rm",
			"fd -e go -x rm", "find . -not -name '*.md' -delete", "for f in $(find . -name '*.py'); do rm \"$f\"; done", "find . -name '*.go' -exec truncate -s 0 {} +", "find $SRC_DIR -name '*.go' -delete", "find . -not -path './.git/*' -delete", "find . -empty -o -name '*.go' -delete", "find src -name '*.ts' -not -empty -delete"},
		Allow: []string{"find . -name '*.go' -print", "find . -name '*.pyc' -delete", "find . -name '__pycache__' -type d -exec rm -rf {} +", "find ./build -type f -delete",
			"find . -type d -empty -delete", "find locales -name '*.json' -empty -delete", "find . -name '*.go' | xargs gofmt -l", "find /tmp/x -name '*.go' -delete", "fd -e pyc -x rm",
			"find . -name '*.min.js' -path './dist/*' -delete", "find $TMPDIR -name 'go-build*' -delete",
			"find . -name '*.orig' -not -path './.git/*' -delete", "fd -t d __pycache__ -x rm -rf"},
	}
}

// fileDeleters remove a file or its contents.
var fileDeleters = map[string]bool{"rm": true, "shred": true, "unlink": true, "truncate": true, "srm": true, "rimraf": true}

// finderDeletes reports whether the line deletes what find or fd select:
// find -delete, or a deleter given find's or fd's matches ({} from -exec,
// -x, xargs or parallel; a loop variable fed by find's output).
func finderDeletes(f *Facts) bool {
	read := map[string]bool{} // variables `while read f` fills from find's output
	for _, c := range f.Cmds("read") {
		for _, v := range c.Pos {
			read["$"+v] = true
		}
	}
	for i := range f.Commands {
		c := &f.Commands[i]
		if c.Name == "find" && c.Has("-delete") {
			return true
		}
		if !fileDeleters[c.Name] && !(c.Name == "git" && sub(c) == "rm") {
			continue
		}
		fed := contains(c.Upstream, "find") || contains(c.Upstream, "fd") || contains(c.Upstream, "fdfind")
		for _, a := range c.Pos {
			if strings.HasSuffix(a, "{}") || fed && strings.Contains(a, "$") || read[a] || read[strings.Trim(a, "{}")] {
				return true
			}
		}
	}
	return false
}

// finderSelection returns a find or fd command's starting points and,
// when what it selects is not only generated files, a description of it
// ("every *.go file"); "" when it selects build output or empty
// directories only.
func finderSelection(c *Cmd) ([]string, string) {
	if c.Name != "find" {
		return fdSelection(c)
	}
	var starts, pats []string
	i := 0
	for ; i < len(c.Args); i++ {
		a := c.Args[i]
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
			break
		}
		starts = append(starts, a)
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	empty, pruned, negated := false, false, false
	for ; i < len(c.Args); i++ {
		switch a := c.Args[i]; a {
		case "!", "-not":
			// A negated test only leaves files out of what the other
			// tests select (-name '*.orig' -not -path './.git/*'); with
			// no other test it selects everything else.
			negated = true
			i = skipFindTest(c.Args, i+1)
		case "-prune":
			if i+1 < len(c.Args) && (c.Args[i+1] == "-o" || c.Args[i+1] == "-or") {
				// find . -path ./node_modules -prune -o -name '*.orig' -exec rm:
				// what follows the -o is what it deletes
				pruned, pats = true, nil
				i++
			}
		case "-empty":
			empty = true
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex":
			if i+1 < len(c.Args) {
				pats = append(pats, c.Args[i+1])
				i++
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			for i++; i < len(c.Args) && c.Args[i] != ";" && c.Args[i] != "+"; i++ {
			}
		}
	}
	if findOnlyLinks(c) {
		return starts, ""
	}
	if !pruned && findSelectsData(c, starts, pats) {
		return starts, "" // outputs/ -name '*.ckpt' -mtime +14: data or output, not source
	}
	if empty && !slices.Contains(c.Args, "-o") && !slices.Contains(c.Args, "-or") {
		return starts, "" // -name '*.json' -empty -delete: only empty files a pattern names, nothing in them to lose
	}
	if len(pats) == 0 {
		if empty {
			return starts, ""
		}
		if negated {
			return starts, "every file but those it excludes"
		}
		if pruned {
			return starts, "every file outside what it prunes"
		}
		return starts, "every file"
	}
	// Tests without -o all hold for a match: one generated pattern
	// (-name '*.min.js' -path './dist/*') confines the delete to it.
	or := !pruned && (slices.Contains(c.Args, "-o") || slices.Contains(c.Args, "-or")) || pruned && strings.Count(strings.Join(c.Args, " "), " -o ") > 1
	for _, p := range pats {
		if !or && generatedPattern(p) {
			return starts, ""
		}
	}
	for _, p := range pats {
		if !generatedPattern(p) {
			return starts, "every " + p + " file"
		}
	}
	return starts, ""
}

// skipFindTest returns the index of the last word of the find test that
// starts at i: a parenthesized group, a test with its value, or one word.
func skipFindTest(args []string, i int) int {
	if i >= len(args) {
		return i
	}
	switch args[i] {
	case "(":
		for d := 0; i < len(args); i++ {
			switch args[i] {
			case "(":
				d++
			case ")":
				if d--; d == 0 {
					return i
				}
			}
		}
		return i
	case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-type", "-newer", "-user", "-group", "-perm", "-size", "-mtime", "-mmin", "-atime", "-ctime":
		return i + 1
	}
	return i
}

// fdSelection is finderSelection for fd: `fd [PATTERN] [PATH…]`, -e EXT.
func fdSelection(c *Cmd) ([]string, string) {
	var pos, exts []string
	glob := false
	for i := 0; i < len(c.Args); i++ {
		switch a := c.Args[i]; a {
		case "-e", "--extension":
			if i+1 < len(c.Args) {
				exts = append(exts, c.Args[i+1])
				i++
			}
		case "-t", "--type", "-E", "--exclude", "-d", "--max-depth", "--min-depth", "-S", "--size", "--changed-within", "--changed-before", "-j", "--threads", "-o", "--owner", "--base-directory", "--search-path":
			i++
		case "-x", "--exec", "-X", "--exec-batch":
			i = len(c.Args)
		case "-g", "--glob":
			glob = true
		default:
			if !strings.HasPrefix(a, "-") {
				pos = append(pos, a)
			}
		}
	}
	starts := []string{"."}
	if len(pos) > 1 {
		starts = pos[1:]
	}
	for _, x := range exts {
		if !generatedPattern("*." + strings.TrimPrefix(x, ".")) {
			return starts, "every ." + strings.TrimPrefix(x, ".") + " file"
		}
	}
	if len(exts) > 0 {
		return starts, ""
	}
	pat := ""
	if len(pos) > 0 {
		pat = pos[0]
	}
	if !glob {
		if t := optJoined(c, "-t", "--type"); generatedLiteral(pat, t == "d" || t == "directory") {
			return starts, "" // fd -t d __pycache__: the caches and dependency trees tools make
		}
		// a regex: `\.pyc$` names what a glob calls *.pyc
		pat = "*" + strings.TrimSuffix(strings.ReplaceAll(strings.TrimPrefix(pat, "^"), `\.`, "."), "$")
	}
	switch pat {
	case "", "*", "*.", "*.*", "*.*.*":
		return starts, "every file"
	}
	if !generatedPattern(pat) {
		return starts, "every file matching " + pat
	}
	return starts, ""
}

// generatedLiteral: an fd regex that is a plain name (__pycache__,
// ^node_modules$) matches the names that contain it; it selects only
// generated files when that name is a generated one. .coverage is also
// the start of .coveragerc, a source file: it needs -t d or ^…$.
func generatedLiteral(pat string, dirs bool) bool {
	anchored := strings.HasPrefix(pat, "^") && strings.HasSuffix(pat, "$")
	lit := strings.ToLower(strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(pat, "^"), "$"), `\.`, "."))
	if lit == "" || strings.ContainsAny(lit, `*?[](){}|+\`) || !generatedNames[lit] && !(anchored && buildOutputName(lit)) {
		return false
	}
	if anchored && buildOutputName(lit) {
		return true // fd -t d '^\.terraform$': exactly a build or tool directory's name
	}
	return dirs || anchored || lit != ".coverage"
}

// generatedExts and generatedNames are what builds, editors and test runs
// leave behind: deleting them by pattern is routine clean-up.
var generatedExts = map[string]bool{".pyc": true, ".pyo": true, ".o": true, ".obj": true, ".a": true, ".lo": true, ".la": true, ".class": true,
	".log": true, ".tmp": true, ".temp": true, ".bak": true, ".orig": true, ".rej": true, ".swp": true, ".swo": true, ".map": true, ".bk": true,
	".gcda": true, ".gcno": true, ".prof": true, ".pprof": true, ".test": true, ".tsbuildinfo": true, ".cache": true, ".egg-info": true, ".d": true, ".dsym": true}

var generatedNames = map[string]bool{".ds_store": true, "thumbs.db": true, "__pycache__": true, ".pytest_cache": true, ".mypy_cache": true,
	".ruff_cache": true, "node_modules": true, ".tox": true, ".coverage": true, "coverage.out": true, "*~": true, ".*~": true, "*.sw?": true}

// generatedPattern reports whether a find pattern selects only generated
// files: a literal name (deleting files by name is like rm of them), an
// extension builds leave behind, or a path under a build directory.
func generatedPattern(p string) bool {
	for _, part := range strings.Split(p, "/") {
		if buildDirs[part] {
			return true
		}
	}
	b := strings.ToLower(path.Base(p))
	if !strings.ContainsAny(b, "*?[") || generatedNames[b] || strings.HasSuffix(b, "~") || generatedCodePattern(b) {
		return true
	}
	if alts := classAlts(path.Ext(b)); alts != nil {
		// *.py[co]: every extension the class spells is generated
		for _, x := range alts {
			if !generatedExts[x] {
				return false
			}
		}
		return true
	}
	return generatedExts[path.Ext(b)]
}

// classAlts spells out an extension with one character class (.py[co]
// is .pyc and .pyo); nil when it has none or more than one.
func classAlts(ext string) []string {
	i, j := strings.IndexByte(ext, '['), strings.IndexByte(ext, ']')
	if i < 0 || j < i+2 || strings.ContainsAny(ext[j+1:], "[*?") || strings.ContainsAny(ext[:i], "*?") || ext[i+1] == '!' || ext[i+1] == '^' || strings.Contains(ext[i+1:j], "-") {
		return nil
	}
	var out []string
	for _, r := range ext[i+1 : j] {
		out = append(out, ext[:i]+string(r)+ext[j+1:])
	}
	return out
}

// buildDirs hold build output, dependencies or scratch files: deleting in
// them by pattern is routine.
var buildDirs = map[string]bool{"build": true, "dist": true, "target": true, "out": true, "node_modules": true, "coverage": true, "tmp": true,
	".cache": true, "__pycache__": true, ".next": true, ".nuxt": true, ".gradle": true, ".pytest_cache": true, ".tox": true, "obj": true, "_build": true}

// experimentDirs are generated (gendirs.txt) but hold the results of
// training and experiment runs, hours of compute each: a pattern delete
// across them asks like one across source.
var experimentDirs = map[string]bool{"outputs": true, "multirun": true, "mlruns": true, "mlartifacts": true, "wandb": true,
	"lightning_logs": true, "tb_logs": true, ".aim": true, ".neptune": true}

// scratchPath reports whether deleting under p is routine: /tmp, the user's
// cache, or a build directory inside the project.
//
// A path inside the project is judged as the project's wherever the
// project lives: a checkout under /tmp is still someone's work (and the
// tests, whose projects live under $TMPDIR, see what a real one sees).
func scratchPath(p, project, home string) bool {
	if project != "" && (p == project || strings.HasPrefix(p, project+"/")) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p, project), "/")
		parts := strings.Split(rel, "/")
		for i, part := range parts {
			if buildDirs[part] || buildOutputName(part) && !experimentDirs[part] || strings.HasSuffix(part, ".egg-info") || i == 0 && part != "" && ecosystemOutput(project, part, nil, false) {
				return true
			}
			if part == "bin" && i+1 < len(parts) && (parts[i+1] == "Debug" || parts[i+1] == "Release") {
				return true // .NET's bin/Debug, bin/Release: a build's output
			}
		}
		return false
	}
	return under(p, "/tmp") || under(p, "/var/tmp") || home != "" && under(p, path.Join(home, ".cache"))
}

// scratchVar reports whether a starting point is a temp or cache directory
// named by a variable ($TMPDIR, ${XDG_CACHE_HOME}/x) the line leaves
// unset. Another unknown variable stays suspect: find $UNSET -delete,
// empty, deletes under the current directory.
func scratchVar(s string) bool {
	if !callfacts.UnknownValue(s) {
		return false
	}
	v := strings.TrimPrefix(strings.TrimPrefix(s, "$"), "{")
	for _, n := range []string{"TMPDIR", "TMP", "TEMP", "RUNNER_TEMP", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"} {
		if rest, ok := strings.CutPrefix(v, n); ok && (rest == "" || strings.ContainsAny(rest[:1], "/}:")) {
			return true
		}
	}
	return false
}
