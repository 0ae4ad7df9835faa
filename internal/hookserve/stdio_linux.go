//go:build linux

package hookserve

import (
	"io"
	"os"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

// clientFiles wraps the client's stdio. Nothing is handed to the
// runtime's poller up front: an os.File asks each descriptor whether it
// is non-blocking (fcntl), and a pollable stdin costs two more to make
// it non-blocking and two epoll_ctl to register and drop it — seven
// system calls before the answer on every hook, for a payload that is
// in the socket already when the request comes (Claude Code writes it
// and closes stdin while the front starts).
//
// A socket stdin (Claude Code's and every Node parent's: libuv gives a
// child's stdio as socket pairs) is read with MSG_DONTWAIT until EOF;
// only when that finds nothing yet does it become what it was before:
// non-blocking, pollable, read under its deadline, and closing it ends
// a read waiting for a writer that never closes it. A pipe does that at
// once, and anything else is an os.File as it is. stdout and stderr are
// written with write(2); one that turns out to be non-blocking and full
// is written through the poller from then on.
func clientFiles(fds []int) (stdin io.ReadCloser, stdout, stderr io.WriteCloser) {
	stdout, stderr = &clientOut{rawFD: rawFD{fd: fds[1]}, name: "stdout"}, &clientOut{rawFD: rawFD{fd: fds[2]}, name: "stderr"}
	var st syscall.Stat_t
	if syscall.Fstat(fds[0], &st) == nil {
		switch st.Mode & syscall.S_IFMT {
		case syscall.S_IFSOCK:
			return &clientIn{rawFD: rawFD{fd: fds[0]}}, stdout, stderr
		case syscall.S_IFIFO:
			_ = syscall.SetNonblock(fds[0], true)
		}
	}
	return os.NewFile(uintptr(fds[0]), "stdin"), stdout, stderr
}

// clientIn is a socket stdin read without the poller until a read would
// wait (see clientFiles).
type clientIn struct {
	rawFD              // f: the poller's, once a read would have waited
	deadline time.Time // for f, set before it exists
}

// rawFD is a client descriptor used with plain system calls until it
// needs the poller (f, from then on); Close closes whichever it is.
type rawFD struct {
	mu     sync.Mutex
	fd     int
	f      *os.File
	closed bool
}

func (r *rawFD) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f != nil {
		return r.f.Close()
	}
	if r.closed {
		return os.ErrClosed
	}
	r.closed = true
	return syscall.Close(r.fd)
}

// SetReadDeadline bounds the reads that wait: those that do not need
// none.
func (in *clientIn) SetReadDeadline(t time.Time) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.f != nil {
		return in.f.SetReadDeadline(t)
	}
	in.deadline = t
	return nil
}

func (in *clientIn) Read(p []byte) (int, error) {
	in.mu.Lock()
	if in.f == nil {
		if in.closed {
			in.mu.Unlock()
			return 0, os.ErrClosed
		}
		if n, err, done := in.readNow(p); done {
			in.mu.Unlock()
			return n, err
		}
		// Nothing there yet: wait for it on the poller from now on.
		if err := syscall.SetNonblock(in.fd, true); err != nil {
			in.mu.Unlock()
			return 0, &os.PathError{Op: "read", Path: "stdin", Err: err}
		}
		in.f = os.NewFile(uintptr(in.fd), "stdin")
		if !in.deadline.IsZero() {
			in.f.SetReadDeadline(in.deadline)
		}
	}
	f := in.f
	in.mu.Unlock()
	return f.Read(p) // outside the lock: Close ends a read that waits
}

// readNow reads what the socket holds without waiting; done is false when
// it holds nothing yet and its writer has not closed it.
func (in *clientIn) readNow(p []byte) (n int, err error, done bool) {
	if len(p) == 0 {
		return 0, nil, true
	}
	for {
		r, _, e := syscall.RawSyscall6(syscall.SYS_RECVFROM, uintptr(in.fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)), syscall.MSG_DONTWAIT, 0, 0)
		switch {
		case e == syscall.EINTR:
			continue
		case e == syscall.EAGAIN:
			return 0, nil, false
		case e != 0:
			return 0, &os.PathError{Op: "read", Path: "stdin", Err: e}, true
		case r == 0:
			return 0, io.EOF, true
		}
		return int(r), nil, true
	}
}

// clientOut is stdout or stderr written with write(2) (see clientFiles).
type clientOut struct {
	rawFD // f: the poller's, once the descriptor was found non-blocking and full
	name  string
}

func (o *clientOut) Write(p []byte) (int, error) {
	o.mu.Lock()
	if o.f != nil {
		f := o.f
		o.mu.Unlock()
		return f.Write(p)
	}
	if o.closed {
		o.mu.Unlock()
		return 0, os.ErrClosed
	}
	n := 0
	for n < len(p) {
		m, err := syscall.Write(o.fd, p[n:])
		if m > 0 {
			n += m
		}
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			// Non-blocking (its open file is shared with a process that
			// made it so) and full: the poller waits for room.
			o.f = os.NewFile(uintptr(o.fd), o.name)
			f := o.f
			o.mu.Unlock()
			m, err := f.Write(p[n:])
			return n + m, err
		case err != nil:
			o.mu.Unlock()
			return n, &os.PathError{Op: "write", Path: o.name, Err: err}
		case m == 0:
			o.mu.Unlock()
			return n, io.ErrShortWrite
		}
	}
	o.mu.Unlock()
	return n, nil
}

// claimNonblock makes a claim (hookwire) non-blocking. The status flags
// are set outright, not read first (one system call, not two): the claim
// is the client's own pipe, which only this server reads, with no flag
// but the access mode (which F_SETFL leaves alone).
func claimNonblock(fd int) error {
	if _, _, e := syscall.RawSyscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_SETFL, syscall.O_NONBLOCK); e != 0 {
		return e
	}
	return nil
}
