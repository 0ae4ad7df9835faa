//go:build unix && !linux

package hookserve

import (
	"io"
	"os"
	"syscall"
)

// clientFiles wraps the client's stdio. A pipe or socket stdin is made
// non-blocking, so it is pollable: reads honour deadlines, and closing it
// ends a read that waits for a writer that never closes it.
func clientFiles(fds []int) (stdin io.ReadCloser, stdout, stderr io.WriteCloser) {
	if isPipe(fds[0]) {
		_ = syscall.SetNonblock(fds[0], true)
	}
	return os.NewFile(uintptr(fds[0]), "stdin"), os.NewFile(uintptr(fds[1]), "stdout"), os.NewFile(uintptr(fds[2]), "stderr")
}

func isPipe(fd int) bool {
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil {
		return false
	}
	m := st.Mode & syscall.S_IFMT
	return m == syscall.S_IFIFO || m == syscall.S_IFSOCK
}

// claimNonblock makes a claim (hookwire) non-blocking.
func claimNonblock(fd int) error { return syscall.SetNonblock(fd, true) }
