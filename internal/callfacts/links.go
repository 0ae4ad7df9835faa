package callfacts

import (
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
// now, in its target (p's parent is resolved, so deleting a link itself
// stays a delete of the link). onDisk says the disk answered: the zone is
// then judged against home and project resolved the same way (a home
// behind a link is still home). A few lstat calls, made only for deletes
// and truncations, never for reads or everyday writes.
func throughLinks(p string, links map[string]string) (real string, onDisk bool) {
	for link, target := range links {
		if rest, ok := strings.CutPrefix(p, link+"/"); ok {
			return filepath.ToSlash(filepath.Join(target, rest)), false
		}
	}
	if !filepath.IsAbs(p) || strings.ContainsAny(p, "$`*?[") {
		return p, false
	}
	dir, base := filepath.Split(p)
	r, err := filepath.EvalSymlinks(dir)
	if err != nil || r == filepath.Clean(dir) {
		return p, false // nothing on disk, or no link on the way
	}
	return filepath.ToSlash(filepath.Join(r, base)), true
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
