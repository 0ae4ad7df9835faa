package callfacts

import (
	"io"
	"os"
	"path"
	"sync"
	"time"
)

// A task runner (make, npm run, just, task, composer, cargo aliases) runs
// commands written in a file of the project. The reading looks them up
// there, bounded: a file the line itself wrote is taken from the line; a
// file on disk is read only when it is a regular file of at most
// maxDefBytes, within defReadTimeout, and at most maxDefFiles per call.
// What cannot be read is left out (the runner's own facts stand).
const (
	maxDefBytes    = 256 << 10
	defReadTimeout = 100 * time.Millisecond
	maxDefFiles    = 16
	// maxDefUp is how many parent directories a runner searches for its
	// file (npm, just, task and cargo look upwards).
	maxDefUp = 8
)

// defText returns the text of definition file p (normalized): what the
// line wrote there, else the file on disk. ok is false when there is
// none or it cannot be read within the bounds; t.known is false when the
// line wrote text it does not show.
func (n *normalizer) defText(p string) (t text, ok bool) {
	if t, ok := n.files[p]; ok {
		return t, true
	}
	if p == "" || p[0] != '/' || n.defReads >= maxDefFiles {
		return text{}, false
	}
	n.defReads++
	s, ok := ReadBounded(p)
	return text{s: s, known: true}, ok
}

// ReadBounded reads a regular file of at most 256 KiB, giving up after
// 100 ms (a stalled network mount must not hang the hook: the read goes
// on in the background and its result is dropped). Every file a rule
// reads on the hook path goes through it.
func ReadBounded(p string) (string, bool) {
	if size, ok := regularSize(p); !ok || size > maxDefBytes {
		return "", false // none, a directory, a FIFO that would block, too large
	}
	type result struct {
		s  string
		ok bool
	}
	done := make(chan result, 1)
	go func() {
		f, err := os.Open(p)
		if err != nil {
			done <- result{}
			return
		}
		defer f.Close()
		b, err := io.ReadAll(io.LimitReader(f, maxDefBytes+1))
		done <- result{string(b), err == nil && len(b) <= maxDefBytes}
	}()
	timer := time.NewTimer(defReadTimeout)
	defer timer.Stop()
	select {
	case r := <-done:
		return r.s, r.ok
	case <-timer.C:
		return "", false
	}
}

// findDef looks for the first of names in dir, then (when up) in its
// parents up to the project's root (or home, or /), and returns the
// file's path and text.
//
// A runner looks for files that mostly are not there (make tries
// GNUmakefile, makefile and Makefile). The directory is asked once
// (dirStamp): when it is not there, none of its files is; when it is,
// the names found missing in it before are not asked again while its
// modification time is the same (absentDefs). What is found is read as
// before, and each name passed over counts against maxDefFiles as its
// read did, so the files read are the same.
func (n *normalizer) findDef(dir string, up bool, names ...string) (string, text, bool) {
	for i := 0; i <= maxDefUp && dir != ""; i++ {
		mtime, isDir := dirStamp(dir)
		known := absentIn(dir, mtime, isDir)
		var missing []string
		for _, name := range names {
			p := path.Join(dir, name)
			if _, wrote := n.files[p]; !wrote && (!isDir || known[name]) {
				n.passDef(p) // not there: as defText's read of it would find
				continue
			}
			if t, ok := n.defText(p); ok {
				rememberAbsent(dir, mtime, known, missing)
				return p, t, true
			}
			if _, wrote := n.files[p]; !wrote && isDir && !lstatExists(p) {
				missing = append(missing, name)
			}
		}
		rememberAbsent(dir, mtime, known, missing)
		if !up || dir == "/" || dir == n.home || dir == n.f.Project {
			break // a project's runner files are in the project
		}
		dir = path.Dir(dir)
	}
	return "", text{}, false
}

// passDef counts a definition file known not to be there as defText
// counts its read (maxDefFiles).
func (n *normalizer) passDef(p string) {
	if p != "" && p[0] == '/' && n.defReads < maxDefFiles {
		n.defReads++
	}
}

// absentDefs are, per directory, the runner file names found missing in
// it at its modification time (findDef). A directory changed since
// (an entry added, removed or renamed sets its time) is asked again; a
// time within absentSettle of the reading is not trusted (a file made in
// the same tick of a coarse clock would not move it), and the map is
// emptied when it holds absentMax directories.
var absentDefs = struct {
	sync.Mutex
	m map[string]absentDir
}{m: map[string]absentDir{}}

type absentDir struct {
	mtime int64
	names map[string]bool // shared once stored: replaced, never changed
}

const (
	absentSettle = int64(2 * time.Second)
	absentMax    = 1024
)

// absentIn are the names known missing in dir at mtime, nil for none.
func absentIn(dir string, mtime int64, isDir bool) map[string]bool {
	if !isDir {
		return nil
	}
	absentDefs.Lock()
	a, ok := absentDefs.m[dir]
	absentDefs.Unlock()
	if !ok || a.mtime != mtime {
		return nil
	}
	return a.names
}

// rememberAbsent adds missing to the names known missing in dir (known,
// at mtime).
func rememberAbsent(dir string, mtime int64, known map[string]bool, missing []string) {
	if len(missing) == 0 || time.Now().UnixNano()-mtime < absentSettle {
		return
	}
	names := make(map[string]bool, len(known)+len(missing))
	for k := range known {
		names[k] = true
	}
	for _, k := range missing {
		names[k] = true
	}
	absentDefs.Lock()
	if len(absentDefs.m) >= absentMax {
		clear(absentDefs.m)
	}
	absentDefs.m[dir] = absentDir{mtime: mtime, names: names}
	absentDefs.Unlock()
}
