package callfacts

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// lineLinks are the symbolic links the line itself creates (ln -s
// TARGET LINK), link → target, both normalized: a later delete through
// the link reaches the target, whatever the disk holds now.
func (f *Facts) lineLinks() map[string]string {
	var links map[string]string
	for i := range f.Commands {
		c := &f.Commands[i]
		if c.Name != "ln" || !c.Has("-s", "--symbolic") || len(c.Pos) != 2 {
			continue
		}
		if links == nil {
			links = map[string]string{}
		}
		links[NormPath(c.Pos[1], c.Dir, f.Home)] = NormPath(c.Pos[0], c.Dir, f.Home)
	}
	return links
}

// throughLinks is where a destructive effect on p lands: below a link the
// line creates, in that link's target; below a link that exists on disk
// now, in its target. Only the directories between p and the root it is
// in (the project, home, a temp dir) are looked at, one lstat each — none
// for ./build — and p itself is not followed, so deleting a link stays a
// delete of the link. onDisk says the disk answered: the zone is then
// judged against home and project resolved the same way.
func throughLinks(p string, links map[string]string, roots ...string) (real string, onDisk bool) {
	for link, target := range links {
		if rest, ok := strings.CutPrefix(p, link+"/"); ok {
			return path.Join(target, rest), false
		}
	}
	if strings.ContainsAny(p, "$`*?[") {
		return p, false
	}
	dir := path.Dir(p)
	for _, root := range roots {
		if root == "" || root == "/" || !within(dir, root) {
			continue
		}
		for cur := root; cur != dir; {
			next := dir
			if i := strings.IndexByte(dir[len(cur)+1:], '/'); i >= 0 {
				next = dir[:len(cur)+1+i]
			}
			exists, link := lstatLink(next)
			if !exists {
				return p, false // nothing on disk
			}
			if link {
				r, err := filepath.EvalSymlinks(dir)
				if err != nil {
					return p, false
				}
				return path.Join(filepath.ToSlash(r), path.Base(p)), true
			}
			cur = next
		}
		return p, false
	}
	return p, false
}

// resolved is dir with its links resolved, dir itself when the disk
// cannot say.
func resolved(dir string) string {
	if dir == "" {
		return ""
	}
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		return filepath.ToSlash(r)
	}
	return dir
}

// destructive effects are worth resolving links for.
func (e PathEffect) destructive() bool {
	return e == PathRecursiveDelete || e == PathDelete || e == PathTruncate
}

// writesThrough: the effect lands in the file a link points at (a
// redirect or an editor writes through a symbolic link; rm removes the
// link itself).
func (e PathEffect) writesThrough() bool {
	return e == PathOverwrite || e == PathWrite || e == PathTruncate
}

// linkedFile is where a write to p lands when p is a symbolic link on
// disk inside one of roots (a project file the agent can be led to write
// through: notes.txt → ~/.bashrc); p itself otherwise. One lstat, and
// only for writes under those roots.
func linkedFile(p string, roots ...string) string {
	inside := false
	for _, r := range roots {
		if r != "" && r != "/" && within(p, r) {
			inside = true
		}
	}
	if !inside || strings.ContainsAny(p, "$`*?[") {
		return p
	}
	if _, link := lstatLink(p); !link {
		return p
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return filepath.ToSlash(r)
	}
	if t, err := os.Readlink(p); err == nil { // a link to a file not there yet
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(p), t)
		}
		return filepath.ToSlash(filepath.Clean(t))
	}
	return p
}

// lineMounts are the bind mounts the line makes, mount point → source
// (mount --bind SRC DST, mount -o bind SRC DST, bindfs SRC DST): a
// recursive delete of a directory above a mount point deletes into the
// source, as rm -rf crosses mount points.
func (f *Facts) lineMounts() map[string]string {
	var m map[string]string
	for i := range f.Commands {
		c := &f.Commands[i]
		bind := c.Name == "bindfs"
		if c.Name == "mount" {
			bind = c.Has("--bind", "--rbind", "-B", "-R")
			for j, a := range c.Args {
				if a == "-o" && j+1 < len(c.Args) && strings.Contains(c.Args[j+1], "bind") {
					bind = true
				}
			}
		}
		if !bind {
			continue
		}
		var pos []string
		for j, a := range c.Args {
			if strings.HasPrefix(a, "-") || j > 0 && (c.Args[j-1] == "-o" || c.Args[j-1] == "-t") {
				continue
			}
			pos = append(pos, a)
		}
		if len(pos) != 2 {
			continue
		}
		if m == nil {
			m = map[string]string{}
		}
		m[NormPath(pos[1], c.Dir, f.Home)] = NormPath(pos[0], c.Dir, f.Home)
	}
	for _, c := range f.Cmds("umount", "fusermount") {
		for _, a := range c.Pos {
			delete(m, NormPath(a, c.Dir, f.Home)) // unmounted again on the line
		}
	}
	return m
}
