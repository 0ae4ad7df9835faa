//go:build unix && !linux

package hookclient

import "syscall"

// socketCloexec is a unix stream socket closed in children.
func socketCloexec() (int, error) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fd) // this process starts no other between
	}
	return fd, err
}

// pipeCloexec is a pipe whose read end is closed in children (Pipe2 is
// not on every unix; this process starts no other between).
func pipeCloexec() ([2]int, error) {
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		return p, err
	}
	syscall.CloseOnExec(p[0])
	return p, nil
}

func setNonblock(fd int) error { return syscall.SetNonblock(fd, true) }
