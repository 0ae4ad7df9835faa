//go:build unix && !(linux && (amd64 || arm64))

package usage

import "syscall"

// sysPread is pread(2) (the raw call of pread_linux.go is for 64-bit
// Linux, where the offset is one argument).
func sysPread(fd int, p []byte, off int64) (int, error) { return syscall.Pread(fd, p, off) }
