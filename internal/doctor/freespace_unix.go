//go:build unix

package doctor

import "syscall"

// freeSpace is the space an unprivileged user may still write in dir's
// filesystem.
func freeSpace(dir string) (uint64, bool) {
	var fs syscall.Statfs_t
	if syscall.Statfs(dir, &fs) != nil {
		return 0, false
	}
	return fs.Bavail * uint64(fs.Bsize), true
}
