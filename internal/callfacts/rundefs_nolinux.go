//go:build !linux

package callfacts

import "os"

// dirStamp is dir's modification time (ns) and whether dir is a
// directory: when it is not (or is not there), no file is found in it.
func dirStamp(dir string) (int64, bool) {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return 0, false
	}
	return fi.ModTime().UnixNano(), true
}
