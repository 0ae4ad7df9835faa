package usage

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// dirListing is a directory's entries as last read: the .jsonl files and
// subdirectories, and the directory's mtime then.
type dirListing struct {
	MtimeNs  int64
	ListedNs int64 // when it was read
	Files    []string
	Dirs     []string
}

// trusted: a listing is used in place of reading the directory while the
// directory's mtime is unchanged, and only if that mtime was already a
// couple of seconds old when the listing was made (an entry added in the
// same clock tick as the listing would not change the mtime).
func (l *dirListing) trusted(mtimeNs int64) bool {
	return l.MtimeNs == mtimeNs && l.ListedNs-mtimeNs > int64(2*time.Second)
}

// DirCache remembers directory listings so Discover stats a known,
// unchanged directory instead of reading it (creating, deleting or
// renaming an entry changes a directory's mtime; appending to a file does
// not, and every file is still stat'ed for its size and mtime).
type DirCache struct {
	mu      sync.Mutex
	dirs    map[string]*dirListing
	changed bool
}

func (c *DirCache) get(path string) *dirListing {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dirs[path]
}

func (c *DirCache) put(path string, l *dirListing) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dirs == nil {
		c.dirs = map[string]*dirListing{}
	}
	c.dirs[path] = l
	c.changed = true
}

// listDir returns the .jsonl files and subdirectories of path, from the
// cache when its listing still holds.
func (c *DirCache) listDir(path string, seen map[string]bool) (files, dirs []string, err error) {
	seen[path] = true
	var mt, now int64
	if c != nil {
		info, err := os.Stat(path)
		if err != nil {
			return nil, nil, err
		}
		mt = info.ModTime().UnixNano()
		if l := c.get(path); l != nil && l.trusted(mt) {
			return l.Files, l.Dirs, nil
		}
		now = time.Now().UnixNano()
	}
	ents, err := os.ReadDir(path)
	if err != nil {
		return nil, nil, err
	}
	for _, de := range ents {
		switch {
		case de.IsDir():
			dirs = append(dirs, de.Name())
		case strings.HasSuffix(de.Name(), ".jsonl") && de.Type()&fs.ModeSymlink == 0:
			files = append(files, de.Name())
		}
	}
	if c != nil {
		c.put(path, &dirListing{MtimeNs: mt, ListedNs: now, Files: files, Dirs: dirs})
	}
	return files, dirs, nil
}

// DiscoverCached is Discover through a directory cache (nil: none).
func DiscoverCached(dirs []string, c *DirCache) ([]File, error) {
	seenRoot := map[string]bool{}
	type unit struct{ root, project string }
	var units []unit
	var files []File
	var seenMu sync.Mutex
	seen := map[string]bool{}
	for _, d := range dirs {
		root := filepath.Join(d, "projects")
		if abs, err := filepath.Abs(root); err == nil {
			root = abs
		}
		if seenRoot[root] {
			continue
		}
		seenRoot[root] = true
		names, subdirs, err := c.listDir(root, seen)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
				continue
			}
			return nil, err
		}
		for _, s := range subdirs {
			units = append(units, unit{root, s})
		}
		for _, n := range names {
			p := filepath.Join(root, n)
			if info, err := os.Lstat(p); err == nil && info.Mode().IsRegular() {
				files = append(files, File{Path: p, Size: info.Size(), MtimeNs: info.ModTime().UnixNano(), Session: strings.TrimSuffix(n, ".jsonl")})
			}
		}
	}
	// Every directory is a unit of work (a project's session directories
	// are many): the walkers share one stack of directories to list, so a
	// large project does not leave one walker busy while the others idle.
	q := &dirQueue{}
	for _, u := range units {
		q.dirs = append(q.dirs, dirJob{dir: filepath.Join(u.root, u.project), project: u.project})
	}
	q.pending = len(q.dirs)
	q.cond.L = &q.mu
	const walkers = 4
	per := make([][]File, walkers)
	var wg sync.WaitGroup
	for w := 0; w < walkers && w < len(units); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := map[string]bool{}
			per[w] = q.walk(c, local)
			seenMu.Lock()
			for k := range local {
				seen[k] = true
			}
			seenMu.Unlock()
		}()
	}
	wg.Wait()
	for _, p := range per {
		files = append(files, p...)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	if c != nil {
		c.mu.Lock()
		for p := range c.dirs {
			if !seen[p] {
				delete(c.dirs, p)
				c.changed = true
			}
		}
		c.mu.Unlock()
	}
	return files, nil
}

// dirJob is a directory to list: under project, at rel below it.
type dirJob struct {
	dir, project string
	rel          []string
}

// dirQueue is the directories left to list; pending counts those queued
// or being listed (the walk is over at 0).
type dirQueue struct {
	mu      sync.Mutex
	cond    sync.Cond
	dirs    []dirJob
	pending int
}

// walk lists directories from q until none are left, queueing their
// subdirectories (symbolic links are not followed), through the cache, and
// returns the .jsonl files found.
func (q *dirQueue) walk(c *DirCache, seen map[string]bool) []File {
	var files []File
	for {
		q.mu.Lock()
		for len(q.dirs) == 0 && q.pending > 0 {
			q.cond.Wait()
		}
		if q.pending == 0 {
			q.mu.Unlock()
			return files
		}
		j := q.dirs[len(q.dirs)-1]
		q.dirs = q.dirs[:len(q.dirs)-1]
		q.mu.Unlock()
		names, subdirs, err := c.listDir(j.dir, seen)
		if err != nil {
			names, subdirs = nil, nil // unreadable: skip
		}
		for _, n := range names {
			p := filepath.Join(j.dir, n)
			info, err := os.Lstat(p)
			if err != nil || !info.Mode().IsRegular() {
				continue
			}
			f := File{Path: p, Size: info.Size(), MtimeNs: info.ModTime().UnixNano(), Project: j.project,
				Session: strings.TrimSuffix(n, ".jsonl")}
			// root/project/<session>/subagents/x.jsonl counts for <session>.
			if k := len(j.rel); k >= 2 && j.rel[k-1] == "subagents" {
				f.Session = j.rel[k-2]
			}
			files = append(files, f)
		}
		q.mu.Lock()
		for _, s := range subdirs {
			q.dirs = append(q.dirs, dirJob{dir: filepath.Join(j.dir, s), project: j.project, rel: append(j.rel[:len(j.rel):len(j.rel)], s)})
		}
		q.pending += len(subdirs) - 1
		wake := len(subdirs) > 0 || q.pending == 0
		q.mu.Unlock()
		if wake {
			q.cond.Broadcast()
		}
	}
}

func dirCacheName(dirs []string) string { return "dirs:" + strings.Join(dirs, ",") }

// DiscoverStore is Discover with the directory cache kept in the store.
func DiscoverStore(ctx context.Context, st CacheStore, dirs []string) ([]File, error) {
	if dirs == nil {
		dirs = ConfigDirs()
	}
	name := dirCacheName(dirs)
	c := &DirCache{}
	if _, data, ok, _ := st.UsageSnapshot(ctx, name); ok {
		c.dirs, _ = decodeDirCache(data)
	}
	files, err := DiscoverCached(dirs, c)
	if err != nil {
		return nil, err
	}
	if c.changed {
		_ = st.SaveUsageSnapshot(ctx, name, []byte{dirCacheVersion}, encodeDirCache(c.dirs)) // only slower without
	}
	return files, nil
}

const dirCacheVersion = 1

func encodeDirCache(m map[string]*dirListing) []byte {
	paths := make([]string, 0, len(m))
	for p := range m {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	w := &wbuf{b: make([]byte, 0, 64*len(m))}
	w.b = append(w.b, dirCacheVersion)
	w.u(uint64(len(paths)))
	prev := ""
	for _, p := range paths {
		// Sorted paths share long prefixes: store the shared length and
		// the rest.
		k := 0
		for k < len(p) && k < len(prev) && p[k] == prev[k] {
			k++
		}
		w.u(uint64(k))
		w.s(p[k:])
		prev = p
		l := m[p]
		w.i(l.MtimeNs)
		w.i(l.ListedNs - l.MtimeNs)
		w.u(uint64(len(l.Files)))
		for _, f := range l.Files {
			w.s(f)
		}
		w.u(uint64(len(l.Dirs)))
		for _, d := range l.Dirs {
			w.s(d)
		}
	}
	return w.b
}

func decodeDirCache(b []byte) (map[string]*dirListing, error) {
	if len(b) == 0 || b[0] != dirCacheVersion {
		return nil, errState
	}
	r := &rbuf{b: b[1:]}
	n := r.u()
	if n > uint64(len(b)) {
		return nil, errState
	}
	m := make(map[string]*dirListing, n)
	prev := ""
	for k := uint64(0); k < n && !r.err; k++ {
		shared := r.u()
		if shared > uint64(len(prev)) {
			return nil, errState
		}
		p := prev[:shared] + r.s()
		prev = p
		l := &dirListing{MtimeNs: r.i()}
		l.ListedNs = l.MtimeNs + r.i()
		nf := r.u()
		if nf > uint64(len(b)) {
			return nil, errState
		}
		for j := uint64(0); j < nf && !r.err; j++ {
			l.Files = append(l.Files, r.s())
		}
		nd := r.u()
		if nd > uint64(len(b)) {
			return nil, errState
		}
		for j := uint64(0); j < nd && !r.err; j++ {
			l.Dirs = append(l.Dirs, r.s())
		}
		m[p] = l
	}
	if r.err {
		return nil, errState
	}
	return m, nil
}
