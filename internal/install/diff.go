package install

import (
	"github.com/aymanbagabas/go-udiff"
)

// Diff is the unified diff from old to new content of path ("" when they
// are the same). A file that did not exist is diffed against /dev/null,
// as git does.
func Diff(path string, existed bool, old, new []byte) string {
	from := path
	if !existed {
		from = "/dev/null"
	}
	return udiff.Unified(from, path, string(old), string(new))
}
