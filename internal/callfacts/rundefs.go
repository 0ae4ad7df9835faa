package callfacts

import (
	"io"
	"os"
	"path"
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
func (n *normalizer) findDef(dir string, up bool, names ...string) (string, text, bool) {
	for i := 0; i <= maxDefUp && dir != ""; i++ {
		for _, name := range names {
			p := path.Join(dir, name)
			if t, ok := n.defText(p); ok {
				return p, t, true
			}
		}
		if !up || dir == "/" || dir == n.home || dir == n.f.Project {
			break // a project's runner files are in the project
		}
		dir = path.Dir(dir)
	}
	return "", text{}, false
}
