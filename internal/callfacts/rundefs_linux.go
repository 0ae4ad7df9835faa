package callfacts

import "syscall"

// dirStamp is dir's modification time (ns) and whether dir is a
// directory: when it is not (or is not there), no file is found in it.
func dirStamp(dir string) (int64, bool) {
	var st syscall.Stat_t
	for {
		err := syscall.Stat(dir, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
			return 0, false
		}
		return st.Mtim.Nano(), true
	}
}
