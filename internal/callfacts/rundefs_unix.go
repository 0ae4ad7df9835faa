//go:build unix

package callfacts

import "syscall"

// regularSize is the size of p when it is a regular file. It asks the
// system directly: a task runner looks for files that mostly do not
// exist, and os.Stat would build an error and a FileInfo for each.
func regularSize(p string) (int64, bool) {
	var st syscall.Stat_t
	if syscall.Stat(p, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return 0, false
	}
	return st.Size, true
}

// lstatLink says whether p is there (a final link not followed) and
// whether it is a symbolic link, as os.Lstat would, without building an
// error and a FileInfo: the paths a line writes mostly do not exist yet.
func lstatLink(p string) (exists, link bool) {
	var st syscall.Stat_t
	for {
		err := syscall.Lstat(p, &st)
		if err == syscall.EINTR {
			continue // os.Lstat retries too
		}
		if err != nil {
			return false, false
		}
		return true, st.Mode&syscall.S_IFMT == syscall.S_IFLNK
	}
}

// lstatExists says whether p has an entry in its directory (a link not
// followed: a link whose target is missing is there, and not remembered
// as missing, since its target may appear without the directory
// changing).
func lstatExists(p string) bool {
	exists, _ := lstatLink(p)
	return exists
}
