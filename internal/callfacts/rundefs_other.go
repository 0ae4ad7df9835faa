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
