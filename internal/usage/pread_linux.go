//go:build linux && (amd64 || arm64)

package usage

import (
	"syscall"
	"unsafe"
)

// sysPread is pread(2) without telling the scheduler: a read of a cached
// file takes tens of microseconds, long enough for the runtime to hand the
// worker's P to another thread during a normal system call (a futex wake
// and a thread switch per read, over 2,000 reads on a cold run). A read
// that waits for the disk holds its P meanwhile, which a parse that reads
// and parses on every P does not miss.
func sysPread(fd int, p []byte, off int64) (int, error) {
	var ptr unsafe.Pointer
	if len(p) > 0 {
		ptr = unsafe.Pointer(&p[0])
	}
	n, _, e := syscall.RawSyscall6(syscall.SYS_PREAD64, uintptr(fd), uintptr(ptr), uintptr(len(p)), uintptr(off), 0, 0)
	if e != 0 {
		return 0, e
	}
	return int(n), nil
}
