//go:build unix

package handlers

import (
	"io/fs"
	"strconv"
	"syscall"
)

// fileID is a file's device and inode: a rule file replaced by another of
// the same size and time (an editor's rename) is still seen as new.
func fileID(fi fs.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return strconv.FormatUint(uint64(st.Dev), 10) + ":" + strconv.FormatUint(uint64(st.Ino), 10)
	}
	return ""
}
