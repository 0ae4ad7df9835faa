//go:build unix

package hookclient

import (
	"os"
	"syscall"
	"time"

	"github.com/warden-dev/warden/internal/hookwire"
	"github.com/warden-dev/warden/internal/paths"
)

// run replaces this process with bin: same pid, descriptors, signals and
// exit code, no second process to wait for.
func run(bin string, args []string) (int, error) {
	err := syscall.Exec(bin, append([]string{bin}, args...), os.Environ())
	return 1, err // Exec returns only on failure
}

// acceptWait is how long the client waits for the keeper to take or
// decline a request; resultWait caps the whole hook (above every Claude
// Code hook timeout warden registers, which end it first).
const (
	acceptWait = 2 * time.Second
	resultWait = 11 * time.Minute
)

// viaKeeper asks the keeper to run args (hook or statusline and their
// arguments). ok is false when no keeper answers or it declines; stdin is
// untouched then. problem gets what went wrong after the keeper took it.
// With the request goes its claim (hookwire): on a timely answer it is
// not looked at; without one it settles whether the keeper or this
// process runs the hook.
//
// It uses raw syscalls, not package net, to send: one connect, one
// sendmsg. The answer is read through the runtime's poller (an os.File on
// the socket, non-blocking from then on), because how this process waits
// costs more than setting the poller up (five system calls): blocked in
// read(2) the goroutine keeps its P, so the runtime's monitor thread
// wakes every 20 µs for the first millisecond, then less often, to look
// at it. A hook whose keeper is busy with the hooks of parallel tool calls
// waits several milliseconds; against a stand-in keeper that answers
// after 5 ms the blocking read cost 2.8 ms of CPU and 72 context switches
// per hook, the poller 2.1 ms and 27 (after 1 ms: 1.90 against 1.82 ms),
// CPU that the keeper and the other callers needed. Parked on the poller,
// no P runs, and the monitor sleeps.
func viaKeeper(args []string, problem func(string)) (code int, ok bool) {
	if hookwire.KeeperOff() || !passable(0) {
		return 0, false
	}
	sock := paths.HookSocket()
	if len(sock) > hookwire.MaxSocketPath {
		return 0, false
	}
	claim, ok := newClaim()
	if !ok {
		return 0, false
	}
	defer syscall.Close(claim)
	fd, err := socketCloexec()
	if err != nil {
		return 0, false
	}
	if !send(fd, sock, args, claim) {
		syscall.Close(fd)
		return 0, false
	}
	if setNonblock(fd) != nil {
		syscall.Close(fd)
		return noAnswer(claim, problem)
	}
	conn := os.NewFile(uintptr(fd), "keeper") // pollable: non-blocking
	defer conn.Close()
	// The keeper answers Accepted with the exit code in one write when
	// the hook is quick, else Accepted first (within hookserve.AcceptGrace)
	// and the code when done; Declined before it touches stdin.
	var b [1]byte
	conn.SetReadDeadline(time.Now().Add(acceptWait))
	n, err := conn.Read(b[:])
	if n == 1 && b[0] == hookwire.Declined {
		return 0, false // stdin is untouched: run it here
	}
	if n != 1 || err != nil || b[0] != hookwire.Accepted {
		return noAnswer(claim, problem)
	}
	// Accepted: the keeper owns stdin now; whatever happens next, this
	// process must not run the hook again.
	conn.SetReadDeadline(time.Now().Add(resultWait))
	if n, err := conn.Read(b[:]); err != nil || n != 1 {
		problem("the keeper stopped before it finished")
		return 0, true
	}
	return int(b[0]), true
}

// newClaim makes the request's claim (hookwire): the read end of a pipe
// holding one byte, its write end closed. Whoever reads the byte owns
// the hook; the other finds the pipe empty (EOF at once, never a wait).
// false: no descriptors left, run the hook here.
func newClaim() (int, bool) {
	p, err := pipeCloexec()
	if err != nil {
		return 0, false
	}
	n, err := syscall.Write(p[1], []byte{hookwire.ClaimByte})
	syscall.Close(p[1])
	if n != 1 || err != nil {
		syscall.Close(p[0])
		return 0, false
	}
	return p[0], true
}

// send connects fd to the keeper's socket and sends the request with
// this process's stdin, stdout and stderr and the claim; connect and
// sendmsg block, for at most acceptWait (SO_SNDTIMEO). false: no keeper
// (ENOENT, ECONNREFUSED), a full backlog, or a send that failed.
func send(fd int, sock string, args []string, claim int) bool {
	setTimeout(fd, syscall.SO_SNDTIMEO, acceptWait)
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: sock}); err != nil {
		return false
	}
	r := &hookwire.Request{Args: args, Environ: os.Environ()}
	r.Cwd, r.CwdDev, r.CwdIno = workDir()
	// The umask can only be read by setting it; this process starts no
	// thread that creates files in between.
	r.Umask = syscall.Umask(0o22)
	syscall.Umask(r.Umask)
	return sendAll(fd, r.Encode(), syscall.UnixRights(0, 1, 2, claim)) == nil
}

// workDir is the working directory as os.Getwd names it ($PWD when that
// names it, so a path through a symbolic link stays as the user sees it)
// and its device and inode, from one stat of "." (os.Getwd makes its own,
// which made it two).
func workDir() (dir string, dev, ino uint64) {
	var dot syscall.Stat_t
	if syscall.Stat(".", &dot) != nil {
		dir, _ = os.Getwd()
		return dir, 0, 0
	}
	dev, ino = uint64(dot.Dev), uint64(dot.Ino)
	if pwd, ok := syscall.Getenv("PWD"); ok && len(pwd) > 0 && pwd[0] == '/' {
		var st syscall.Stat_t
		if syscall.Stat(pwd, &st) == nil && st.Dev == dot.Dev && st.Ino == dot.Ino {
			return pwd, dev, ino
		}
	}
	dir, _ = os.Getwd()
	return dir, dev, ino
}

// noAnswer: no answer in time, the keeper went away, or it is stuck.
// A stalled keeper (a debugger or tracer on it, a starved machine) may
// still take the request from its socket when it comes back, and stdin
// alone cannot say whether it will: it may not have read it yet. The
// claim decides: this process takes it back — then the keeper, finding
// it gone, leaves the hook alone and this process runs it — or the
// keeper took it first and the hook is the keeper's (never run twice,
// never on a half-read payload).
func noAnswer(claim int, problem func(string)) (code int, ok bool) {
	if takeClaim(claim) {
		return 0, false
	}
	problem("the keeper stopped before it finished")
	return 0, true
}

// takeClaim reads the claim's byte: true when this process got it.
func takeClaim(claim int) bool {
	var b [1]byte
	for {
		n, err := syscall.Read(claim, b[:])
		if err == syscall.EINTR {
			continue
		}
		return n == 1 && err == nil
	}
}

// passable: only a pipe, socket or file is handed over. A terminal's open
// file is shared with the user's shell, and the keeper may switch what it
// reads to non-blocking; such a caller runs the hook in its own process.
func passable(fd int) bool {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return false
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFIFO, syscall.S_IFSOCK, syscall.S_IFREG:
		return true
	}
	return false
}

func setTimeout(fd, opt int, d time.Duration) {
	tv := syscall.NsecToTimeval(d.Nanoseconds())
	_ = syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, opt, &tv)
}

// sendAll sends the request, the descriptors with its first bytes.
func sendAll(fd int, b, oob []byte) error {
	for len(b) > 0 {
		n, err := syscall.SendmsgN(fd, b, oob, nil, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		b, oob = b[n:], nil
	}
	return nil
}
