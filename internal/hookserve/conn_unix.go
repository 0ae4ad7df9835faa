//go:build unix

package hookserve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/warden-dev/warden/internal/hook"
	"github.com/warden-dev/warden/internal/hookwire"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/reqenv"
	"github.com/warden-dev/warden/internal/statusline"
)

// Listen makes the unix socket at path (0600, in a 0700 directory),
// replacing a file left there by a dead server. Paths longer than a unix
// socket address allows are refused: hooks then run in their own process.
// Closing the listener leaves the file; Shutdown removes it if it is
// still this server's (a server whose home was removed under it must not
// take away the socket of the one that started in its place).
func Listen(path string) (*net.UnixListener, error) {
	if len(path) > hookwire.MaxSocketPath {
		return nil, fmt.Errorf("hook socket path %s is longer than a unix socket allows; hooks run in their own process", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("hook socket: %w", err)
	}
	_ = os.Remove(path)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("hook socket: %w", err)
	}
	ln.SetUnlinkOnClose(false)
	if err := os.Chmod(path, 0o600); err != nil {
		os.Remove(path)
		ln.Close()
		return nil, fmt.Errorf("hook socket: %w", err)
	}
	if fi, err := os.Stat(path); err == nil {
		listened.Store(ln, fi) // the file this Listen made, for Serve
	}
	return ln, nil
}

// listened holds, for a listener Listen made and Serve has not taken yet,
// the socket file it made: Serve may start after another server replaced
// the file, and must not take that one for its own.
var listened sync.Map // *net.UnixListener → os.FileInfo

// removeIfStill returns what removes ln's socket file if it is still the
// one ln listens on: the file Listen made, or for a listener made
// elsewhere the one there now (nil when there is none).
func removeIfStill(ln *net.UnixListener) func() {
	path := ln.Addr().String()
	var own os.FileInfo
	if v, ok := listened.LoadAndDelete(ln); ok {
		own = v.(os.FileInfo)
	} else if fi, err := os.Stat(path); err == nil {
		own = fi
	} else {
		return nil
	}
	return func() {
		if fi, err := os.Stat(path); err == nil && os.SameFile(fi, own) {
			os.Remove(path)
		}
	}
}

// Serve accepts requests on ln until Shutdown (then it returns
// ErrServerClosed) or ln fails. Shutdown closes ln.
func (s *Server) Serve(ln *net.UnixListener) error {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		after := removeIfStill(ln)
		ln.Close()
		if after != nil {
			after()
		}
		return ErrServerClosed
	}
	s.listeners[ln] = removeIfStill(ln)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.listeners, ln)
		s.mu.Unlock()
	}()
	for {
		conn, err := ln.AcceptUnix()
		if err != nil {
			if s.isClosing() {
				return ErrServerClosed
			}
			if errors.Is(err, net.ErrClosed) {
				return err
			}
			logf(s.o.Log, "accept: %v", err)
			time.Sleep(20 * time.Millisecond) // EMFILE and the like: let it pass
			continue
		}
		id, ok := s.begin()
		if !ok {
			conn.Close() // shutting down: the client runs the hook itself
			continue
		}
		go s.handle(conn, id)
	}
}

// handle serves one connection: read the request and its descriptors,
// decline what this server must not run, else run it with a worker and
// send its exit code.
func (s *Server) handle(conn *net.UnixConn, id uint64) {
	hook.GrowStack()
	defer s.end(id)
	defer conn.Close()
	var fds []int // the client's descriptors, closed here
	defer func() {
		for _, fd := range fds {
			syscall.Close(fd)
		}
	}()
	// answer closes the client's descriptors (so Claude Code's pipes see
	// EOF when the client exits) and sends the exit code, once: after the
	// request, or after a panic (fail open).
	answer := func() {} // set once the request is taken
	defer func() {
		if p := recover(); p != nil {
			logf(s.o.Log, "internal error: %v", p)
			answer() // fail open: the code is 0 unless already sent
		}
	}()
	_ = conn.SetDeadline(time.Now().Add(s.o.ReadTimeout))
	req, got, err := readRequest(conn)
	fds = got
	if errors.Is(err, errNoRequest) {
		return // a probe (`warden doctor`, a test waiting for the socket)
	}
	if err != nil {
		s.decline(conn, err.Error())
		return
	}
	if len(req.Args) == 1 && req.Args[0] == hookwire.Settle && len(fds) == 0 {
		s.answerSettle(conn)
		return
	}
	if why := s.refuse(conn, req, fds); why != "" {
		s.decline(conn, why)
		return
	}
	if !s.takeSlot() {
		s.decline(conn, fmt.Sprintf("all %d workers busy for %v", s.o.Workers, s.o.QueueWait))
		return
	}
	release := sync.OnceFunc(func() { <-s.slots })
	defer release()
	// Nothing declines past this point, so take the claim (hookwire): a
	// client that waited for an answer in vain (this process stalled
	// while the request sat in its socket) took it back and runs the
	// hook itself; then this server must not touch its stdin at all.
	if !takeClaim(fds[3]) {
		s.decline(conn, "its client stopped waiting for an answer and runs the hook itself (this server was stalled)")
		return
	}
	syscall.Close(fds[3])
	fds = fds[:3]
	// Taken: from here on the request is this server's to answer (stdin
	// is read below); the client hears Accepted with the exit code, or at
	// AcceptGrace when the hook takes longer.
	_ = conn.SetDeadline(time.Time{})

	// The request's context ends when the client goes away (Claude Code
	// signalled it: its socket closes) or a shutdown runs out of time.
	// A quick hook is done before a goroutine watching the socket would
	// matter, so one starts only with a request still running at
	// AcceptGrace (a judge, a pacing sleep).
	ctx, cancel := context.WithCancelCause(s.hard)
	defer cancel(nil)
	rep := newReply(conn, AcceptGrace, func() {
		var b [1]byte
		conn.Read(b[:]) // EOF when the client exits; conn.Close ends it otherwise
		cancel(errCallerGone)
	})

	stdin, stdout, stderr := clientFiles(fds)
	fds = nil
	code := 0
	answerWith := func(c int) {
		stdin.Close()
		stdout.Close()
		stderr.Close()
		rep.code(c)
	}
	var answered sync.Once
	answer = func() { answered.Do(func() { answerWith(code) }) }
	defer answer()
	env := &reqenv.Env{Environ: req.Environ, Cwd: filepath.Clean(req.Cwd)}
	switch req.Args[0] {
	case "hook":
		// The hook ends for the caller as soon as its output is out: the
		// caller's descriptors close and the client hears its exit code
		// while the event is recorded. Claude Code waits for the process
		// and its pipes, not for the row; the next hook of the session
		// waits for the row (the session lock), and a reader in another
		// process may find it a fraction of a millisecond later.
		code = hook.Run(ctx, hook.Request{Args: req.Args[1:], Env: env,
			Stdin: stdin, Stdout: stdout, Stderr: stderr, Store: s.o.Store, Handlers: s.o.Handlers,
			Answer: func(c int) { answered.Do(func() { s.answered(id); answerWith(c) }) }, Late: s.o.Log})
	case "statusline":
		o := statusline.Options{Wrap: wrapArg(req.Args[1:]), Env: env, ReadTimeout: s.o.ReadTimeout}
		statusline.Run(stdin, stdout, statusline.Live(o))
	}
	// The worker is free before the client hears back: a client that
	// sends its next request at once finds it free.
	release()
	answer()
}

// errCallerGone ends a request whose client went away while it ran: what
// the hook says and records then names this, not its budget.
var errCallerGone = errors.New("its caller went away (Claude Code ended it, or it stopped waiting for this server)")

// answerSettle answers a settle request (hookwire.Settle) from this
// server's user once the hooks answered before it are recorded, or
// after hookwire.SettleWait: Accepted and 0 either way (the reader then
// reads what is there).
func (s *Server) answerSettle(conn *net.UnixConn) {
	if uid, err := peerUID(conn); err != nil || uid != s.uid {
		s.decline(conn, fmt.Sprintf("settle from peer uid %d, not this server's %d (%v)", uid, s.uid, err))
		return
	}
	ctx, cancel := context.WithTimeout(s.hard, hookwire.SettleWait)
	defer cancel()
	_ = s.Settle(ctx)
	_ = conn.SetWriteDeadline(time.Now().Add(time.Second))
	conn.Write([]byte{hookwire.Accepted, 0})
}

// takeSlot waits up to QueueWait for a free worker; false when none
// came. The common case, a free worker, costs no timer.
func (s *Server) takeSlot() bool {
	select {
	case s.slots <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(s.o.QueueWait)
	defer t.Stop()
	select {
	case s.slots <- struct{}{}:
		return true
	case <-t.C:
		return false
	}
}

// refuse says why this server must not run the request as the caller's
// own process would, or "".
func (s *Server) refuse(conn *net.UnixConn, req *hookwire.Request, fds []int) string {
	if len(req.Args) == 0 || (req.Args[0] != "hook" && req.Args[0] != "statusline") {
		return fmt.Sprintf("unknown command %q", req.Args)
	}
	if req.Args[0] == "statusline" && wrapArg(req.Args[1:]) == "\x00" {
		return "statusline arguments for warden-core to parse (and explain): " + strings.Join(req.Args[1:], " ")
	}
	if len(fds) != hookwire.RequestFDs {
		return fmt.Sprintf("%d descriptors instead of stdin, stdout, stderr and the claim", len(fds))
	}
	if uid, err := peerUID(conn); err != nil || uid != s.uid {
		return fmt.Sprintf("peer uid %d is not this server's %d (%v)", uid, s.uid, err)
	}
	home := paths.HomeFor(func(k string) string { return hookwire.Getenv(req.Environ, k) })
	if db := filepath.Join(home, "warden.db"); filepath.Clean(db) != filepath.Clean(s.o.DBPath) {
		return fmt.Sprintf("its store %s is not this server's %s", db, s.o.DBPath)
	}
	if !filepath.IsAbs(req.Cwd) {
		return fmt.Sprintf("working directory %q is not absolute", req.Cwd)
	}
	// What a process has but cannot give per request: the umask applies
	// to every file any goroutine creates, and every child a hook starts
	// (a handoff, a judge's `claude -p`, a status line's --wrap command)
	// inherits the server's — os/exec has no per-child umask. A caller with
	// another runs in its own process. The time zone is carried instead:
	// children get the caller's TZ with its environment, and the server
	// formats the caller's local times in reqenv.Location, never
	// time.Local.
	if req.Umask >= 0 && s.umask >= 0 && req.Umask != s.umask {
		return fmt.Sprintf("umask %03o is not this server's %03o", req.Umask, s.umask)
	}
	var st syscall.Stat_t
	if err := syscall.Stat(req.Cwd, &st); err != nil {
		return fmt.Sprintf("working directory %s: %v", req.Cwd, err)
	}
	if req.CwdIno != 0 && (uint64(st.Dev) != req.CwdDev || uint64(st.Ino) != req.CwdIno) {
		return fmt.Sprintf("working directory %s no longer names the caller's directory (deleted and re-created, or moved)", req.Cwd)
	}
	return ""
}

// errNoRequest: the peer connected and closed without sending a byte.
var errNoRequest = errors.New("connection closed before a request")

// readRequest reads one request and the descriptors sent with it. The
// descriptors come back even with an error, for the caller to close.
func readRequest(conn *net.UnixConn) (*hookwire.Request, []int, error) {
	buf := make([]byte, 16<<10)
	oob := make([]byte, syscall.CmsgSpace(8*4))
	n, oobn, _, _, err := conn.ReadMsgUnix(buf, oob)
	var fds []int
	if oobn > 0 {
		msgs, perr := syscall.ParseSocketControlMessage(oob[:oobn])
		if perr == nil {
			for _, m := range msgs {
				if got, err := syscall.ParseUnixRights(&m); err == nil {
					fds = append(fds, got...)
				}
			}
		}
	}
	if n == 0 && oobn == 0 && (err == nil || errors.Is(err, io.EOF)) { // recvmsg's 0: the peer closed
		return nil, fds, errNoRequest
	}
	if err != nil {
		return nil, fds, fmt.Errorf("read request: %w", err)
	}
	data := buf[:n]
	for {
		req, err := hookwire.Decode(data)
		if err == nil {
			return req, fds, nil
		}
		if !errors.Is(err, hookwire.ErrShort) {
			return nil, fds, err
		}
		if len(data) > 5*hookwire.MaxRequest {
			return nil, fds, errors.New("request too large")
		}
		more := make([]byte, 64<<10)
		m, err := conn.Read(more)
		if m == 0 && err != nil {
			return nil, fds, fmt.Errorf("read request: %w", err)
		}
		data = append(data, more[:m]...)
	}
}

// takeClaim reads the claim's byte (hookwire): true when this server got
// it, false when the client took it back. Non-blocking: a claim is a
// pipe whose writer is closed, and any other descriptor must not hold a
// worker.
func takeClaim(fd int) bool {
	if claimNonblock(fd) != nil {
		return false
	}
	var b [1]byte
	for {
		n, err := syscall.Read(fd, b[:])
		if err == syscall.EINTR {
			continue
		}
		return n == 1 && err == nil && b[0] == hookwire.ClaimByte
	}
}

// wrapArg is the --wrap value of `warden statusline` arguments (its only
// flag), "" without it, and "\x00" for anything else: help, a typo, which
// warden-core's command tree answers properly.
func wrapArg(args []string) string {
	switch {
	case len(args) == 0:
		return ""
	case len(args) == 2 && args[0] == "--wrap":
		return args[1]
	case len(args) == 1 && strings.HasPrefix(args[0], "--wrap="):
		return strings.TrimPrefix(args[0], "--wrap=")
	}
	return "\x00"
}
