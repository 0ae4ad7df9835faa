//go:build unix

package hook

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/warden-dev/warden/internal/hookwire"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/statusline"
)

type server struct {
	ServeOptions
	env chan struct{} // held by the hook that owns the process environment
	wg  sync.WaitGroup

	// What the environment and working directory were last set to (read
	// and written only by the holder of env): the hooks of one session
	// come with the same ones, and need not set them again.
	lastEnv []string
	lastCwd string
}

func serve(ctx context.Context, o ServeOptions) error {
	if len(o.Socket) > hookwire.MaxSocketPath {
		return fmt.Errorf("hook socket path %s is longer than a unix socket allows; hooks run in their own process", o.Socket)
	}
	if err := os.MkdirAll(filepath.Dir(o.Socket), 0o700); err != nil {
		return fmt.Errorf("hook socket: %w", err)
	}
	// The caller holds the keeper lock: a socket file left here is a dead
	// keeper's.
	_ = os.Remove(o.Socket)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: o.Socket, Net: "unix"})
	if err != nil {
		return fmt.Errorf("hook socket: %w", err)
	}
	ln.SetUnlinkOnClose(true)
	if err := os.Chmod(o.Socket, 0o600); err != nil {
		ln.Close()
		return fmt.Errorf("hook socket: %w", err)
	}
	s := &server{ServeOptions: o, env: make(chan struct{}, 1)}
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	for {
		conn, err := ln.AcceptUnix()
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			if errors.Is(err, net.ErrClosed) {
				return err
			}
			fmt.Fprintf(s.Log, "warden keeper: accept: %v\n", err)
			time.Sleep(20 * time.Millisecond) // EMFILE and the like: let it pass
			continue
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.handle(conn)
		}()
	}
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(s.Drain):
		fmt.Fprintf(s.Log, "warden keeper: hooks still running after %v; their clients allow\n", s.Drain)
	}
	return nil
}

// handle serves one connection: read the request and its descriptors,
// decline what this keeper must not run, else run the hook and send its
// exit code.
func (s *server) handle(conn *net.UnixConn) {
	defer conn.Close()
	var fds []int // the client's descriptors, closed here unless wrapped
	var files []*os.File
	defer func() {
		for _, fd := range fds {
			syscall.Close(fd)
		}
		for _, f := range files {
			f.Close()
		}
	}()
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(s.Log, "warden keeper: internal error: %v\n", p)
		}
	}()
	_ = conn.SetDeadline(time.Now().Add(2 * time.Second))
	req, fds, err := readRequest(conn)
	if err != nil {
		fmt.Fprintf(s.Log, "warden keeper: %v\n", err)
		return // the client sees EOF before Accepted and runs the hook itself
	}
	if why := s.refuse(conn, req, fds); why != "" {
		fmt.Fprintf(s.Log, "warden keeper: declined a hook: %s\n", why)
		conn.Write([]byte{hookwire.Declined})
		return
	}
	select {
	case s.env <- struct{}{}:
	case <-time.After(s.EnvWait):
		conn.Write([]byte{hookwire.Declined})
		return
	}
	release := sync.OnceFunc(func() { <-s.env })
	defer release()
	if _, err := conn.Write([]byte{hookwire.Accepted}); err != nil {
		return
	}
	_ = conn.SetDeadline(time.Time{})

	if !slices.Equal(req.Environ, s.lastEnv) {
		useEnvironment(req.Environ)
		s.lastEnv = req.Environ
	}
	if req.Cwd != s.lastCwd {
		if os.Chdir(req.Cwd) == nil {
			s.lastCwd = req.Cwd
		} else {
			s.lastCwd = ""
		}
	}
	// Non-blocking, stdin is pollable: closing it ends a read that waits
	// for a writer that never closes it (Main's read deadline), instead of
	// leaking the read.
	if isPipe(fds[0]) {
		_ = syscall.SetNonblock(fds[0], true)
	}
	for i, name := range []string{"stdin", "stdout", "stderr"} {
		files = append(files, os.NewFile(uintptr(fds[i]), name))
	}
	fds = nil
	var code int
	switch req.Args[0] {
	case "hook":
		code = invoke(&invocation{
			args: req.Args[1:], cwd: req.Cwd,
			stdin: files[0], stdout: files[1], stderr: files[2],
			store: s.Store, handlersDone: release,
		})
	case "statusline":
		o := statusline.Options{Wrap: wrapArg(req.Args[1:])}
		o = statusline.Live(o)
		o.EnvDone = release
		statusline.Run(files[0], files[1], o)
	}
	// Close our copies of the client's stdio before it exits, so Claude
	// Code's pipes see EOF when the client's process ends.
	for _, f := range files {
		f.Close()
	}
	files = nil
	conn.Write([]byte{byte(code)})
}

// refuse says why this keeper must not run the request, or "".
func (s *server) refuse(conn *net.UnixConn, req *hookwire.Request, fds []int) string {
	if len(req.Args) == 0 || (req.Args[0] != "hook" && req.Args[0] != "statusline") {
		return fmt.Sprintf("unknown command %q", req.Args)
	}
	if req.Args[0] == "statusline" && wrapArg(req.Args[1:]) == "\x00" {
		return "statusline arguments for warden-core to parse (and explain): " + strings.Join(req.Args[1:], " ")
	}
	if len(fds) != 3 {
		return fmt.Sprintf("%d descriptors instead of stdin, stdout and stderr", len(fds))
	}
	if uid, err := peerUID(conn); err != nil || uid != os.Getuid() {
		return fmt.Sprintf("peer uid %d is not this keeper's %d (%v)", uid, os.Getuid(), err)
	}
	home := paths.HomeFor(func(k string) string { return hookwire.Getenv(req.Environ, k) })
	if db := filepath.Join(home, "warden.db"); filepath.Clean(db) != filepath.Clean(s.DBPath) {
		return fmt.Sprintf("its store %s is not this keeper's %s", db, s.DBPath)
	}
	if !filepath.IsAbs(req.Cwd) {
		return fmt.Sprintf("working directory %q is not absolute", req.Cwd)
	}
	return ""
}

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
	if err != nil {
		return nil, fds, fmt.Errorf("read hook request: %w", err)
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
		if len(data) > 3*hookwire.MaxRequest {
			return nil, fds, errors.New("hook request too large")
		}
		more := make([]byte, 64<<10)
		m, err := conn.Read(more)
		if m == 0 && err != nil {
			return nil, fds, fmt.Errorf("read hook request: %w", err)
		}
		data = append(data, more[:m]...)
	}
}

// useEnvironment makes environ this process's environment, for the code
// of one hook that reads it (paths, judges, the programs it starts).
func useEnvironment(environ []string) {
	os.Clearenv()
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			os.Setenv(k, v)
		}
	}
}

func isPipe(fd int) bool {
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil {
		return false
	}
	m := st.Mode & syscall.S_IFMT
	return m == syscall.S_IFIFO || m == syscall.S_IFSOCK
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
