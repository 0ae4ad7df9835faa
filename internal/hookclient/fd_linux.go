package hookclient

import "syscall"

// socketCloexec is a unix stream socket closed in children, made so in
// one system call.
func socketCloexec() (int, error) {
	return syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
}

// pipeCloexec is a pipe closed in children, made so in one system call.
func pipeCloexec() ([2]int, error) {
	var p [2]int
	err := syscall.Pipe2(p[:], syscall.O_CLOEXEC)
	return p, err
}

// setNonblock makes this process's own socket non-blocking: its only
// status flag is set outright, not read first (one system call, not two).
func setNonblock(fd int) error {
	if _, _, e := syscall.RawSyscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_SETFL, syscall.O_NONBLOCK); e != 0 {
		return e
	}
	return nil
}
