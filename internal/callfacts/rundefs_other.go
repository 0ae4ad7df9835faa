//go:build !unix

package callfacts

import "os"

// regularSize is the size of p when it is a regular file.
func regularSize(p string) (int64, bool) {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return 0, false
	}
	return fi.Size(), true
}

// lstatLink says whether p is there (a final link not followed) and
// whether it is a symbolic link.
func lstatLink(p string) (exists, link bool) {
	fi, err := os.Lstat(p)
	if err != nil {
		return false, false
	}
	return true, fi.Mode()&os.ModeSymlink != 0
}

// lstatExists is always true off unix: no name is remembered missing.
func lstatExists(p string) bool { return true }
