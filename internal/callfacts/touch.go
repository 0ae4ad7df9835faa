package callfacts

import (
	"os"
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/lazyre"
)

// PathEffect is what a command does to one path target, finer than a
// command's Effect: the verdict table (policy) judges it per zone.
type PathEffect string

// Path effects, in the order the verdict table shows them.
const (
	PathRecursiveDelete PathEffect = "recursive-delete" // rm -r, find -delete, sync with delete
	PathDelete          PathEffect = "delete"           // rm, unlink, mv away, shred
	PathTruncate        PathEffect = "truncate"         // emptied or rewritten whole: truncate, `: > f`, cp /dev/null f, dd of=
	PathOverwrite       PathEffect = "overwrite"        // replaced: `> f`, cp/mv onto, tee
	PathWrite           PathEffect = "write"            // created, appended, edited in place
	PathPermissions     PathEffect = "permissions"      // chmod, chown, chgrp, chattr, setfacl
	PathSetID           PathEffect = "setuid"           // chmod u+s, g+s, 4755: runs as its owner, whoever starts it
)

// PathEffects lists every path effect in table order.
func PathEffects() []PathEffect {
	return []PathEffect{PathRecursiveDelete, PathDelete, PathTruncate, PathOverwrite, PathWrite, PathPermissions, PathSetID}
}

// Touch is one effect on one path target, with the zone it falls in.
type Touch struct {
	Effect PathEffect `json:"effect"`
	Path   string     `json:"path"`
	Zone   Zone       `json:"zone"`
	// Via is the command ("rm -rf ~/x") or redirect ("> ~/.bashrc").
	Via string `json:"via"`
}

// Touches lists the call's effects on path targets: file tools' files,
// each command's targets, and output redirections. Device files
// (/dev/null, the process's own streams) are left out.
func (f *Facts) Touches() []Touch {
	var out []Touch
	links := f.lineLinks()
	add := func(e PathEffect, p, via string) {
		home, project := f.Home, f.Project
		if target, ok := links[p]; ok && (e == PathRecursiveDelete || e.writesThrough() && !strings.HasPrefix(via, "ln ")) {
			// rm -rf link/: the tree the line linked to (a trailing / is
			// lost in normalizing); > link: the file it points at (ln -sf
			// replacing the link writes the link, not its target).
			p = target
		} else if e.writesThrough() && !strings.HasPrefix(via, "ln ") {
			p = linkedFile(p, f.Project, "/tmp", "/var/tmp")
		}
		if deviceFile(p) {
			return
		}
		if e.destructive() {
			var onDisk bool
			if p, onDisk = throughLinks(p, links, f.Project, f.Home, "/tmp", "/var/tmp"); onDisk {
				home, project = resolved(home), resolved(project)
			}
		}
		out = append(out, Touch{Effect: e, Path: p, Zone: ZoneOf(p, home, project), Via: via})
		if e == PathRecursiveDelete {
			// rm -rf build/rootfs after mount --bind /home build/rootfs/home:
			// the delete goes on into what the line mounted below it
			for dst, src := range f.lineMounts() {
				if dst == p || strings.HasPrefix(dst, p+"/") {
					out = append(out, Touch{Effect: e, Path: src, Zone: ZoneOf(src, f.Home, f.Project), Via: via + " (through the bind mount at " + dst + ")"})
				}
			}
		}
	}
	switch f.Tool {
	case "Write": // the whole file, whatever was there
		if f.FilePath != "" {
			add(PathOverwrite, f.FilePath, f.Tool)
		}
		return out
	case "Edit", "MultiEdit", "NotebookEdit":
		if f.FilePath != "" {
			add(PathWrite, f.FilePath, f.Tool)
		}
		return out
	}
	var interpSeen map[string]bool
	for i := range f.Commands {
		c := &f.Commands[i]
		// DryRun is read once, and only when a test below needs it (it
		// walks the tool table and the preview forms): most commands (go
		// test, git status) are left by the cheaper tests first
		dryKnown, dry := false, false
		isDry := func() bool {
			if !dryKnown {
				dry, dryKnown = c.DryRun(), true
			}
			return dry
		}
		// every mountOutputOpts is a long option: a command with none is
		// not read for them (most commands, on every call)
		if hasLongOption(c.Args) && !isDry() {
			// Rscript derive.R --out /mnt/shared/…/adam/, R CMD INSTALL
			// --library=/mnt/shared/R/site-library: an output option's
			// value on a share others use is written
			for _, v := range OptionValues(c.Args, mountOutputOpts) {
				if p := NormPath(v, c.Dir, f.Home); SharedMount(p, f.Home) {
					add(PathWrite, p, c.String())
				}
			}
		}
		if len(c.Targets) == 0 {
			if p := inPlacePath(c, f.Home); p != "" && !isDry() {
				add(PathOverwrite, p, c.String()) // ocrmypdf x.pdf x.pdf: rewritten in place (inplace.go)
			}
		}
		if c.Effect == EffectNone && len(c.Targets) == 0 && c.tool().removes == nil || isDry() {
			continue // it changes nothing, or only says what it would do
		}
		if c.Payload != "" && (IsInterpreter(c.Name) || compilers[c.Name]) {
			if !interpSeen[c.Name] {
				if interpSeen == nil {
					interpSeen = map[string]bool{}
				}
				interpSeen[c.Name] = true
				for _, t := range f.interpTouches(c) {
					add(t.Effect, t.Path, c.Name+" "+short(c.Payload))
				}
			}
			continue
		}
		via := ""
		for _, t := range cmdTouches(c, f.Home) {
			if strings.HasPrefix(t.Path, "$(") && f.onlyMktempCaptured() {
				t.Path = "/tmp/(mktemp)" // rm -rf "$(mktemp -d)": a fresh scratch directory
			}
			if via == "" {
				via = c.String()
				for j := len(c.Wrappers) - 1; j >= 0; j-- {
					if runnerWrapper(c.Wrappers[j]) {
						via = c.Wrappers[j] + " runs `" + via + "`" // npm run clean runs `rm -rf ~/x`
						break
					}
				}
			}
			n := len(out)
			add(t.Effect, t.Path, via)
			if len(out) > n && (RemoteScratch(c, out[n].Path, f.Home) || f.SandboxOwn(c, out[n].Path)) {
				out[n].Zone = ZoneTemp // ssh login02 'rm -rf /scratch/USER/run': scratch on the host it runs on (remotescratch.go)
			}
		}
	}
	for i := range f.Redirects {
		r := f.Redirects[i]
		switch {
		case f.serialAsked(&f.Redirects[i]):
			// echo '*IDN?' > /dev/ttyUSB0: a question to the device (devicequery.go)
		case r.Op == ">" || r.Op == ">|" || r.Op == "&>":
			e := PathOverwrite
			if r.Cmd == "" || r.Cmd == ":" || r.Cmd == "true" {
				e = PathTruncate // `> f`, `: > f`: nothing written, the file emptied
			}
			add(e, r.Target, r.Op+" "+r.Target)
		case r.Op == ">>" || r.Op == "&>>":
			add(PathWrite, r.Target, r.Op+" "+r.Target)
		}
	}
	return out
}

// onlyMktempCaptured reports whether every command substitution of the
// line runs mktemp, so a target it names is a new scratch path.
func (f *Facts) onlyMktempCaptured() bool {
	seen := false
	for i := range f.Commands {
		if c := &f.Commands[i]; c.Captured {
			if c.Name != "mktemp" {
				return false
			}
			seen = true
		}
	}
	return seen
}

// hasLongOption reports whether one of args starts with "--": only such a
// word can be one of mountOutputOpts or its value's option (OptionValues
// reads a long option only whole or as --opt=v).
func hasLongOption(args []string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "--") {
			return true
		}
	}
	return false
}

// mountOutputOpts name where a program writes its output (a script's
// --out, R CMD INSTALL's --library): read as writes when their value is on
// a shared mount (SharedMount).
var mountOutputOpts = []string{"--out", "--output", "--outdir", "--out-dir", "--output-dir", "--output-directory", "--outfile", "--out-file",
	"--output-file", "--dest", "--destination", "--dest-dir", "--library", "--lib", "--export-dir", "--results-dir", "--save-dir", "--target-dir"}

// treeDeleteCall matches library calls that delete whole trees.
var treeDeleteCall = lazyre.New(`rmtree|\bdir_delete\(|rm_rf|rm_r\b|RemoveAll|remove_dir_all|rimraf|remove_tree|removedirs|del_tree|File::Path|recursive\s*[:=]\s*(?:true|TRUE|T\b)|Deno\.remove\b`)

// interpTouches are the effects of an interpreter one-liner on the paths
// its library calls name (the reading records them as paths of the
// interpreter: shutil.rmtree('/x'), fs.rmSync(…, {recursive: true})).
func (f *Facts) interpTouches(c *Cmd) []Touch {
	var out []Touch
	for _, p := range f.Paths {
		if p.Via != c.Name || p.Op != OpDelete && p.Op != OpWrite {
			continue
		}
		e := PathWrite
		if p.Op == OpDelete {
			e = deleteEffect(treeDeleteCall.MatchString(c.Payload))
		} else if SharedMount(p.Path, f.Home) && path.Ext(p.Path) != "" {
			e = PathOverwrite // haven::write_sas(d, "/mnt/shared/…/dm.sas7bdat"): a named file on a share replaced
		}
		out = append(out, Touch{Effect: e, Path: p.Path})
	}
	return out
}

// cmdTouches are the effects of one command on its path targets, from
// its tables: the paths the reading gave it (Targets), find's start
// points, a sync's destination, and, for a command whose effect is a
// delete but whose targets the tables do not place, its path-like
// arguments (a program the tables know only by family).
func cmdTouches(c *Cmd, home string) []Touch {
	var out []Touch
	if out := jobTouches(c, home); out != nil {
		return out
	}
	recursive := c.tool().trees || c.Has("-r", "-R", "--recursive", "-Recurse", "-recurse") || everyFound(c) || wholePrefix(c)
	switch {
	case c.Name == "find" && c.Has("-delete"):
		// with a filter it deletes the matches inside, not the tree
		e := deleteEffect(!c.Has(findFilters...))
		for _, p := range FindRoots(c) {
			out = append(out, Touch{Effect: e, Path: NormPath(p, c.Dir, home)})
		}
		return out
	case EmptiedDirs(c) != nil:
		// emptied before the build or the sync writes into it
		for _, d := range EmptiedDirs(c) {
			out = append(out, Touch{Effect: PathRecursiveDelete, Path: NormPath(d, c.Dir, home)})
		}
		return out
	case c.Name == "rsync" && syncDeletes(c) && len(c.Pos) > 1:
		if dst := c.Pos[len(c.Pos)-1]; !remoteSpec(dst) {
			out = append(out, Touch{Effect: PathRecursiveDelete, Path: NormPath(dst, c.Dir, home)})
		}
		return out
	case removedSources(c) != nil:
		// archived or sent, then removed: the sources go, trees and all
		for _, a := range removedSources(c) {
			out = append(out, Touch{Effect: PathRecursiveDelete, Path: NormPath(a, c.Dir, home)})
		}
		return out
	case c.Effect == EffectDelete && len(c.Targets) == 0 && c.Payload == "" && !NamesArgs(c.Name) && adminTab().progs[c.Name] == nil: // an admin verb deletes on a server, not its files
		for _, a := range c.Pos {
			if PathLike(a) && !remoteSpec(a) {
				out = append(out, Touch{Effect: deleteEffect(recursive), Path: NormPath(a, c.Dir, home)})
			}
		}
		return append(out, hiddenTargets(c, recursive)...)
	}
	out = append(out, hiddenTargets(c, recursive)...)
	dst := ""
	if dir := CopyTargetDir(c); len(c.Targets) > 0 && dir != "" {
		dst = NormPath(dir, c.Dir, home) // mv -t DIR SRC…: DIR is where they go
	} else if len(c.Targets) > 0 && len(c.Pos) > 1 && c.tool().copies {
		dst = NormPath(c.Pos[len(c.Pos)-1], c.Dir, home) // the one target that is not moved away
	}
	for _, t := range c.Targets {
		e := targetEffect(c, t == dst, recursive || c.tool().recovers && !TrashesFileOnly(c, t, home))
		if e == PathDelete && c.Name == "mv" && dst != "" && withinAny(dst, "", tempDirs) && movedTree(t, home, c.Dir) {
			e = PathRecursiveDelete // mv ~/Documents /tmp/: the whole folder goes where it is wiped
		}
		out = append(out, Touch{Effect: e, Path: t})
	}
	return out
}

// everyFound reports whether c runs on every file an unfiltered find or
// fd finds (fd . ~/Documents -X rm): its target is the start point, and
// what it does, it does to the whole tree. A filtered search names
// DIR/{} instead, the matches inside.
func everyFound(c *Cmd) bool {
	if len(c.Wrappers) == 0 || c.Effect != EffectDelete {
		return false
	}
	w := c.Wrappers[len(c.Wrappers)-1]
	if !strings.HasPrefix(w, "fd") && !strings.HasPrefix(w, "find") {
		return false
	}
	for _, a := range c.Args {
		if strings.Contains(a, "{}") {
			return false
		}
	}
	return true
}

// movedTree reports whether a source mv moves away (to a scratch
// directory) is a folder: one on
// disk, or a name without an extension right under home or the working
// directory (~/Documents, src), where folders are.
func movedTree(p, home, dir string) bool {
	if fi, err := os.Stat(p); err == nil {
		return fi.IsDir()
	}
	d, b := path.Dir(p), path.Base(p)
	if strings.Contains(b, ".") || strings.ToUpper(b) == b || strings.HasSuffix(b, "file") {
		return false // notes.md, LICENSE, Makefile, Dockerfile: files
	}
	return home != "" && d == home || dir != "" && d == dir
}

// hiddenTargets are the targets of a delete that a command substitution
// names ($(cat dirs.txt)): the line does not show them, so their zone is
// unknown.
func hiddenTargets(c *Cmd, recursive bool) []Touch {
	if c.Effect != EffectDelete || c.tool().args != OpDelete {
		return nil // wp post delete $(wp post list …): ids of a service's objects, not files
	}
	var out []Touch
	for _, a := range c.Pos {
		if strings.HasPrefix(a, "$(") {
			out = append(out, Touch{Effect: deleteEffect(recursive), Path: a})
		}
	}
	return out
}

// targetEffect is what c does to one of its targets; dst says it is the
// destination of a copy or a move (the last of two or more arguments).
func targetEffect(c *Cmd, dst, recursive bool) PathEffect {
	t := c.tool()
	switch {
	case t.sets == PathPermissions && c.SetsID(), c.Name == "install" && dst && c.SetsID():
		return PathSetID
	case c.Name == "fallocate" && c.Has("-p", "--punch-hole", "-z", "--zero-range", "-c", "--collapse-range"):
		return PathTruncate // the range's data is gone
	case t.sets != "":
		return t.sets // chmod: permissions, truncate: truncate
	case (t.out != nil || t.into != nil) && !t.copies && t.inplace == nil:
		return PathOverwrite // curl -o, tar -x -C: what was there is replaced
	case (c.Name == "cp" || c.Name == "install") && len(c.Pos) > 0 && c.Pos[0] == "/dev/null", c.Name == "dd" && !ddCopies(c):
		return PathTruncate // dd of= rewrites its output from the start with nothing: zeros, noise
	case c.Name == "dd":
		return PathOverwrite // dd if=/dev/sda of=disk.img: the output replaced by a copy, as cp does (diskread.go)
	case c.Name == "mv" && !dst:
		return deleteEffect(recursive) // moved away
	case t.copies && intoDir(c):
		return PathWrite
	case t.copies && (c.Name != "ln" || c.Has("-f", "--force")):
		return PathOverwrite
	case c.Name == "tee" && !c.Has("-a", "--append"):
		return PathOverwrite
	case c.Effect == EffectDelete:
		return deleteEffect(recursive)
	}
	return PathWrite
}

// intoDir reports whether a copy or a move puts its sources into a
// directory (a trailing slash, several sources, -t) rather than over a
// file.
func intoDir(c *Cmd) bool {
	return len(c.Pos) > 2 || c.Has("-t", "--target-directory") || len(c.Pos) > 0 && strings.HasSuffix(c.Pos[len(c.Pos)-1], "/")
}

func deleteEffect(recursive bool) PathEffect {
	if recursive {
		return PathRecursiveDelete
	}
	return PathDelete
}

// findFilters narrow what find -delete removes to some files of the tree.
var findFilters = []string{"-name", "-iname", "-path", "-ipath", "-wholename", "-regex", "-iregex", "-newer",
	"-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-size", "-empty", "-user", "-group", "-perm", "-links", "-inum", "-samefile"}

// FindRoots are find's start points: the arguments before the first
// expression word ("." when none).
func FindRoots(c *Cmd) []string {
	var roots []string
	for _, a := range c.Args {
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == "\\(" {
			if a == "-L" || a == "-H" || a == "-P" {
				continue
			}
			break
		}
		roots = append(roots, a)
	}
	if len(roots) == 0 {
		return []string{"."}
	}
	return roots
}

// removedSources are the positionals c deletes after archiving or
// sending them, nil for none.
func removedSources(c *Cmd) []string {
	r := c.tool().removes
	if r == nil || !c.Has(r.flags...) {
		return nil
	}
	end := len(c.Pos)
	if r.dest {
		end--
	}
	if r.skip >= end {
		return nil
	}
	// a removes option's value names the side kept (unison -force ROOT:
	// the other root is made to match it)
	var valued []string
	for _, f := range r.flags {
		if c.tool().values[f] {
			valued = append(valued, f) // only an option that takes a value
		}
	}
	kept := OptionValues(c.Args, valued)
	if len(kept) == 0 {
		return c.Pos[r.skip:end]
	}
	var out []string
	for _, p := range c.Pos[r.skip:end] {
		if !containsStr(kept, p) {
			out = append(out, p)
		}
	}
	return out
}

// syncDeletes reports whether rsync deletes at its destination.
func syncDeletes(c *Cmd) bool {
	for _, f := range c.Flags {
		if strings.HasPrefix(f, "--del") {
			return !c.Has("-n", "--dry-run")
		}
	}
	return false
}

// remoteSpec reports whether an argument names another host or a URL
// (host:path, s3://…), not a local path.
func remoteSpec(a string) bool {
	return strings.Contains(a, "://") || strings.Contains(a, ":") && !strings.HasPrefix(a, "/") && !strings.HasPrefix(a, ".")
}

// wholePrefix: c, a package manager told to remove every package
// (conda remove --all) of an environment named by its path (-p,
// --prefix), deletes that environment's directory, tree and all
// (remote13: a lab's shared env under /project).
func wholePrefix(c *Cmd) bool {
	t := c.tool()
	return len(t.all) > 0 && c.Has(t.all...) && c.Has("-p", "--prefix")
}

// CopyTargetDir is the directory a copy or a move names with -t or
// --target-directory (cp, mv, ln, install): then every positional is a
// source and this is the destination; "" when the option is not given.
func CopyTargetDir(c *Cmd) string {
	if !c.tool().copies || !c.Has("-t", "--target-directory") && !hasPrefixWord(c.Args, "--target-directory=", "-t") {
		return ""
	}
	return optValue(c.Args, "-t", "--target-directory")
}

// hasPrefixWord reports whether an argument before -- starts with one
// of prefixes and says more (--opt=VALUE, -tVALUE).
func hasPrefixWord(args []string, prefixes ...string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		for _, p := range prefixes {
			if len(a) > len(p) && strings.HasPrefix(a, p) && !strings.HasPrefix(a, "--") == !strings.HasPrefix(p, "--") {
				return true
			}
		}
	}
	return false
}
