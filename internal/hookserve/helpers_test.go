//go:build unix

package hookserve

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/hookwire"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/testenv"
)

// TestMain doubles as the `warden-core handoff auto …` a status line
// crossing the context threshold starts detached (internal/detach runs
// this binary): it notes that it ran and exits, so the server must reap
// it.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == "handoff" && os.Args[2] == "auto" {
		if f := os.Getenv("HANDOFF_LOG"); f != "" {
			if w, err := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
				fmt.Fprintln(w, strings.Join(os.Args[1:], " "))
				w.Close()
			}
		}
		os.Exit(0)
	}
	testenv.Main(m)
}

// rig is an in-process server on a temp warden home.
type rig struct {
	home, sock string
	st         *sqlite.Store
	srv        *Server
	log        *testenv.Buffer
	served     chan error
}

func newRig(t testing.TB, o Options) *rig {
	t.Helper()
	return newRigWith(t, o, nil)
}

// newRigWith is newRig with the server's store seen through wrap (nil:
// as it is); r.st stays the store itself.
func newRigWith(t testing.TB, o Options, wrap func(store.Local) store.Local) *rig {
	t.Helper()
	// A short socket path: t.TempDir() can exceed sun_path.
	home, err := os.MkdirTemp("", "wds")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	r := &rig{home: home, sock: filepath.Join(home, "run", "hook.sock"), log: &testenv.Buffer{}, served: make(chan error, 1)}
	r.st, err = sqlite.OpenResident(context.Background(), filepath.Join(home, "warden.db")) // as the keeper does
	if err != nil {
		t.Fatal(err)
	}
	r.st.SetMaxOpenConns(8)
	r.st.SetMaxIdleConns(8)
	o.DBPath, o.Store, o.Log = filepath.Join(home, "warden.db"), r.st, r.log
	if wrap != nil {
		o.Store = wrap(r.st)
	}
	r.srv = New(o)
	ln, err := Listen(r.sock)
	if err != nil {
		t.Fatal(err)
	}
	go func() { r.served <- r.srv.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := r.srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		if err := <-r.served; err != ErrServerClosed {
			t.Errorf("Serve returned %v, want ErrServerClosed", err)
		}
		r.st.Close()
		if t.Failed() {
			t.Logf("server log:\n%s", r.log.String())
		}
	})
	return r
}

// environ is a caller's environment on this rig's warden home.
func (r *rig) environ(extra ...string) []string {
	env := []string{"WARDEN_HOME=" + r.home, "HOME=" + r.home, "PATH=" + os.Getenv("PATH"), "WARDEN_KEEPER=off"}
	if tz, ok := os.LookupEnv("TZ"); ok {
		env = append(env, "TZ="+tz)
	}
	return append(env, extra...)
}

// call is what a client sends: arguments, environment, directory and
// stdin; stdinOpen leaves stdin open (a stuck writer) until the returned
// close function runs.
type call struct {
	args    []string
	environ []string
	cwd     string
	// dirOf, when set, is the directory whose device and inode the client
	// reports as its own (default: cwd's).
	dirOf     string
	umask     int
	stdin     string
	stdinOpen bool
	// sockets gives the server socket pairs for stdin, stdout and stderr,
	// as a Node parent (Claude Code) gives its children, with the payload
	// written before the request is sent, as it is while the front starts
	// (with stdinOpen, stdin stays open after it).
	sockets bool
	// stdinLate is written to stdin 50 ms after the request is sent,
	// then stdin is closed (a payload the server has to wait for).
	stdinLate string
	// hangUp closes the connection this long after the server took the
	// request, as a client killed by Claude Code does.
	hangUp time.Duration
	// withdrawn: the client took its claim back before the server got to
	// the request, as one that waited for an answer in vain does.
	withdrawn bool
}

type result struct {
	declined       bool
	code           int
	stdout, stderr string
	err            error
	stdinW         *os.File // open when call.stdinOpen
	// together: Accepted and the exit code came in one read;
	// acceptedAfter: when the first reply byte came.
	together      bool
	acceptedAfter time.Duration
}

// do runs one request the way internal/hookclient does, on pipes.
func (r *rig) do(t testing.TB, c call) result {
	t.Helper()
	if c.cwd == "" {
		c.cwd = r.home
	}
	if c.environ == nil {
		c.environ = r.environ()
	}
	if c.umask == 0 {
		c.umask = readUmask()
	}
	req := &hookwire.Request{Args: c.args, Cwd: c.cwd, Environ: c.environ, Umask: c.umask}
	dir := c.dirOf
	if dir == "" {
		dir = c.cwd
	}
	var st syscall.Stat_t
	if err := syscall.Stat(dir, &st); err == nil {
		req.CwdDev, req.CwdIno = uint64(st.Dev), uint64(st.Ino)
	}
	var inR, inW, outR, outW, errR, errW *os.File
	if c.sockets {
		inR, inW = socketPair(t)
		outW, outR = socketPair(t)
		errW, errR = socketPair(t)
		io.WriteString(inW, c.stdin)
		if !c.stdinOpen && c.stdinLate == "" {
			inW.Close()
		}
	} else {
		inR, inW, _ = os.Pipe()
		outR, outW, _ = os.Pipe()
		errR, errW, _ = os.Pipe()
	}
	conn, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: r.sock, Net: "unix"})
	if err != nil {
		return result{err: err}
	}
	defer conn.Close()
	sent := time.Now()
	claim := newClaim(t, !c.withdrawn)
	_, _, err = conn.WriteMsgUnix(req.Encode(), syscall.UnixRights(int(inR.Fd()), int(outW.Fd()), int(errW.Fd()), int(claim.Fd())), nil)
	inR.Close()
	outW.Close()
	errW.Close()
	claim.Close()
	if err != nil {
		return result{err: err}
	}
	var res result
	if c.stdinLate != "" {
		if !c.sockets {
			io.WriteString(inW, c.stdin)
		}
		go func() {
			time.Sleep(50 * time.Millisecond)
			io.WriteString(inW, c.stdinLate)
			inW.Close()
		}()
	} else if c.sockets {
		if c.stdinOpen {
			res.stdinW = inW
		}
	} else if !c.stdinOpen {
		io.WriteString(inW, c.stdin)
		inW.Close()
	} else {
		io.WriteString(inW, c.stdin)
		res.stdinW = inW
	}
	var wg sync.WaitGroup
	var o, e bytes.Buffer
	wg.Add(2)
	go func() { defer wg.Done(); io.Copy(&o, outR); outR.Close() }()
	go func() { defer wg.Done(); io.Copy(&e, errR); errR.Close() }()
	conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	// Up to two bytes: Accepted and the code come in one write when the
	// hook is quick (res.together).
	var first [2]byte
	n, err := conn.Read(first[:])
	if n == 0 {
		res.err = fmt.Errorf("no reply: %v", err)
		return res
	}
	res.acceptedAfter = time.Since(sent)
	b := first[:1]
	if b[0] == hookwire.Declined {
		res.declined = true
		inW.Close()
		wg.Wait()
		return res
	}
	if c.hangUp > 0 {
		time.Sleep(c.hangUp)
		conn.Close()
		wg.Wait()
		return res
	}
	if n == 2 {
		res.together = true
		b = first[1:]
	} else if _, err := io.ReadFull(conn, b); err != nil {
		res.err = fmt.Errorf("no exit code: %w", err)
	}
	res.code = int(b[0])
	wg.Wait()
	res.stdout, res.stderr = o.String(), e.String()
	return res
}

// socketPair is a connected unix stream socket pair: the child's end
// (given to the server) and the parent's.
func socketPair(t testing.TB) (child, parent *os.File) {
	t.Helper()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	syscall.CloseOnExec(fds[0])
	syscall.CloseOnExec(fds[1])
	return os.NewFile(uintptr(fds[0]), "child"), os.NewFile(uintptr(fds[1]), "parent")
}

func hookArgs() []string { return []string{"hook", "--harness", "claude"} }

func preToolUse(session, cwd, command string) string {
	return fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"t-%s","tool_input":{"command":%q}}`,
		session, cwd, command, command)
}

func (r *rig) events(t *testing.T) []store.Event {
	t.Helper()
	r.settle(t)
	evs, err := r.st.Events(context.Background(), store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// settle waits until the server has recorded every hook it answered.
func (r *rig) settle(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.srv.Settle(ctx); err != nil {
		t.Fatalf("server still busy after 10s: %v", err)
	}
}

// children lists this process's child processes with their state letter
// (Z: a zombie nobody reaped).
func children(t *testing.T) map[int]string {
	t.Helper()
	me := os.Getpid()
	out := map[int]string{}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatalf("/proc: %v", err)
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 {
			continue
		}
		if ppid, _ := strconv.Atoi(f[1]); ppid == me {
			out[pid] = f[0]
		}
	}
	return out
}

// waitFor polls cond until it holds or d passes.
func waitFor(d time.Duration, cond func() bool) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// newClaim is a request's claim (hookwire): a pipe's read end holding
// the claim byte, or with full false an empty one (the client took it).
func newClaim(t testing.TB, full bool) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	if full {
		w.Write([]byte{hookwire.ClaimByte})
	}
	w.Close()
	return r
}
