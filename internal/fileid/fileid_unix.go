//go:build unix

// Package fileid names a file by its device and inode, so a cache keyed on
// a file's size and modification time also sees a file replaced by
// another (an editor's rename, a key linked into place).
package fileid

import (
	"io/fs"
	"strconv"
	"syscall"
)

// Of is fi's device and inode, "" where the system does not say.
func Of(fi fs.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return strconv.FormatUint(uint64(st.Dev), 10) + ":" + strconv.FormatUint(uint64(st.Ino), 10)
	}
	return ""
}
