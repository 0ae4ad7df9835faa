package hookclient_test

import (
	"bytes"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/hookwire"
	"github.com/warden-dev/warden/internal/testenv"
)

// The front's fast path (fast_linux_amd64.s) must be indistinguishable
// from the Go front it stands in for: these tests run the front built
// with it (as `make build` links it) and the front built without it
// against a stand-in keeper that records every request, and compare.

// fronts returns the front with the fast path (linked as `make build`
// links it) and the one without, each in its own directory beside a
// stand-in warden-core.
func fronts(t *testing.T) (fast, slow string) {
	t.Helper()
	dir := testenv.Binaries(t, "warden") // linked as `make build` links it
	fast = filepath.Join(t.TempDir(), "fast", "warden")
	slow = filepath.Join(t.TempDir(), "slow", "warden")
	copyFile(t, filepath.Join(dir, "warden"), fast)
	out, err := exec.Command("go", "build", "-o", slow, testenv.Module+"/cmd/warden").CombinedOutput()
	if err != nil {
		t.Fatalf("go build ./cmd/warden: %v\n%s", err, out)
	}
	// warden-core stand-in: what runs when no keeper takes the hook. It
	// proves stdin reached it whole.
	core := "#!/bin/sh\nprintf 'core:%s:' \"$*\"\ncat\nexit 7\n"
	for _, f := range []string{fast, slow} {
		os.WriteFile(filepath.Join(filepath.Dir(f), "warden-core"), []byte(core), 0o755)
	}
	return fast, slow
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(to), 0o755)
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}

// standIn is a keeper that records requests and answers as told.
type standIn struct {
	ln *net.UnixListener
	// answer decides the reply to a request: it may read the payload
	// from stdin and write to stdout (the client's own descriptors).
	answer func(req *hookwire.Request, stdin, stdout *os.File) []byte

	mu   sync.Mutex
	reqs []seen
}

type seen struct {
	raw     []byte
	threads int    // of the client while it waited
	kinds   string // of the descriptors it handed over, as fdKinds says
}

func newStandIn(t *testing.T, sock string, answer func(req *hookwire.Request, stdin, stdout *os.File) []byte) *standIn {
	t.Helper()
	os.MkdirAll(filepath.Dir(sock), 0o700)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	s := &standIn{ln: ln, answer: answer}
	t.Cleanup(func() { ln.Close() })
	go s.serve(t)
	return s
}

func (s *standIn) serve(t *testing.T) {
	for {
		c, err := s.ln.AcceptUnix()
		if err != nil {
			return
		}
		s.one(t, c)
	}
}

func (s *standIn) one(t *testing.T, c *net.UnixConn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	var raw []byte
	var fds []int
	buf := make([]byte, 1<<20)
	oob := make([]byte, syscall.CmsgSpace(3*4))
	for {
		n, oobn, _, _, err := c.ReadMsgUnix(buf, oob)
		if oobn > 0 {
			msgs, _ := syscall.ParseSocketControlMessage(oob[:oobn])
			for _, m := range msgs {
				got, _ := syscall.ParseUnixRights(&m)
				fds = append(fds, got...)
			}
		}
		raw = append(raw, buf[:n]...)
		if _, derr := hookwire.Decode(raw); !errors.Is(derr, hookwire.ErrShort) || err != nil || n == 0 {
			break
		}
	}
	var files []*os.File
	for i, fd := range fds {
		files = append(files, os.NewFile(uintptr(fd), "fd"+strconv.Itoa(i)))
	}
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	threads := -1
	if raw, err := c.SyscallConn(); err == nil {
		raw.Control(func(fd uintptr) {
			if cred, err := syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED); err == nil {
				threads = threadsOf(int(cred.Pid))
			}
		})
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, seen{raw: raw, threads: threads, kinds: fdKinds(files)})
	s.mu.Unlock()
	req, err := hookwire.Decode(raw)
	if err != nil || len(files) != 3 {
		t.Errorf("stand-in: request %q with %d descriptors: %v", raw, len(files), err)
		return
	}
	if reply := s.answer(req, files[0], files[1]); len(reply) > 0 {
		c.Write(reply)
	}
}

func (s *standIn) requests() []seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]seen(nil), s.reqs...)
}

func (s *standIn) reset() {
	s.mu.Lock()
	s.reqs = nil
	s.mu.Unlock()
}

// fdKinds names the file type of each descriptor: "fifo,chardev,socket".
func fdKinds(files []*os.File) string {
	var out []string
	for _, f := range files {
		fi, err := f.Stat()
		switch {
		case err != nil:
			out = append(out, "?")
		case fi.Mode()&os.ModeNamedPipe != 0:
			out = append(out, "fifo")
		case fi.Mode()&os.ModeSocket != 0:
			out = append(out, "socket")
		case fi.Mode()&os.ModeCharDevice != 0:
			out = append(out, "chardev")
		default:
			out = append(out, "file")
		}
	}
	return strings.Join(out, ",")
}

func threadsOf(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "Threads:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	return -1
}

// run runs a front with exactly env and args in dir, payload on stdin
// (a pipe), and returns its exit code, stdout and stderr.
type ran struct {
	code           int
	stdout, stderr string
}

func runFront(t *testing.T, bin, dir string, env []string, stdin *os.File, args ...string) ran {
	t.Helper()
	return runFrontWith(t, bin, dir, env, stdin, "", nil, args...)
}

// runFrontWith is runFront with stdout or stderr closed in the front
// (closed "1" or "2"), and started gets the process once it runs.
func runFrontWith(t *testing.T, bin, dir string, env []string, stdin *os.File, closed string, started func(*os.Process), args ...string) ran {
	t.Helper()
	// os.StartProcess, not os/exec: exec.Cmd drops duplicate keys from
	// Env, and the fronts must be shown the environment as it is.
	outR, outW, _ := os.Pipe()
	errR, errW, _ := os.Pipe()
	files := []*os.File{stdin, outW, errW}
	switch closed {
	case "1":
		files[1] = nil
	case "2":
		files[2] = nil
	}
	p, err := os.StartProcess(bin, append([]string{bin}, args...), &os.ProcAttr{Dir: dir, Env: env, Files: files})
	outW.Close()
	errW.Close()
	if err != nil {
		t.Fatal(err)
	}
	if started != nil {
		started(p)
	}
	var out, errb bytes.Buffer
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); out.ReadFrom(outR) }()
	go func() { defer wg.Done(); errb.ReadFrom(errR) }()
	st, err := p.Wait()
	wg.Wait()
	outR.Close()
	errR.Close()
	if err != nil {
		t.Fatal(err)
	}
	return ran{code: st.ExitCode(), stdout: out.String(), stderr: errb.String()}
}

// payloadPipe is a pipe holding payload, closed for writing.
func payloadPipe(t *testing.T, payload string) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString(payload)
	w.Close()
	t.Cleanup(func() { r.Close() })
	return r
}

// accept reads the payload and answers Accepted with code 5 after writing
// the payload back on the client's stdout.
func accept(req *hookwire.Request, stdin, stdout *os.File) []byte {
	b := make([]byte, 4096)
	n, _ := stdin.Read(b)
	stdout.WriteString("keeper:" + strings.Join(req.Args, " ") + ":" + string(b[:n]))
	return []byte{hookwire.Accepted, 5}
}

// TestFastFrontSendsWhatTheGoFrontSends: for environments, arguments and
// working directories of every shape, the request bytes are the same from
// both fronts; the fast one sent them before the Go runtime started (one
// thread) wherever it can, and the answer reached the caller the same way.
func TestFastFrontSendsWhatTheGoFrontSends(t *testing.T) {
	fast, slow := fronts(t)
	root := t.TempDir()
	home := filepath.Join(root, "home")
	wh := filepath.Join(home, ".warden")
	k := newStandIn(t, filepath.Join(wh, "run", "hook.sock"), accept)
	proj := filepath.Join(root, "proj")
	os.MkdirAll(proj, 0o755)
	link := filepath.Join(root, "link")
	os.Symlink(proj, link)
	other := filepath.Join(root, "other")
	os.MkdirAll(other, 0o755)
	base := []string{"HOME=" + home, "PATH=/usr/bin:/bin", "LANG=C.UTF-8"}
	var big []string // one string may hold 128 KiB at most (MAX_ARG_STRLEN)
	for i := range 3 {
		big = append(big, "BIG"+strconv.Itoa(i)+"="+strings.Repeat("x", 100<<10))
	}
	var many []string
	for i := range 5000 {
		many = append(many, "V"+strconv.Itoa(i%4000)+"=1")
	}
	// Long keys that differ only at their end, the last one repeated:
	// each repeat is compared with every key before it, byte by byte.
	var crafted []string
	prefix := strings.Repeat("K", 296)
	for i := range 400 {
		crafted = append(crafted, prefix+strconv.Itoa(1000+min(i, 199))+"=v")
	}

	cases := []struct {
		name string
		env  []string
		dir  string
		args []string
		fast bool // the fast path takes it (else the Go front does, the same way)
	}{
		{"plain", base, proj, []string{"hook", "--harness", "claude"}, true},
		{"statusline", base, proj, []string{"statusline"}, true},
		{"WARDEN_HOME", append([]string{"WARDEN_HOME=" + wh}, base...), proj, []string{"hook"}, true},
		{"empty WARDEN_HOME means HOME's", append([]string{"WARDEN_HOME="}, base...), proj, []string{"hook"}, true},
		{"PWD names the directory through a link", append([]string{"PWD=" + link}, base...), link, []string{"hook"}, true},
		{"PWD names another directory", append([]string{"PWD=" + other}, base...), proj, []string{"hook"}, true},
		{"PWD relative", append([]string{"PWD=proj"}, base...), proj, []string{"hook"}, true},
		{"duplicate keys, empty and bare entries", append([]string{"A=1", "", "A=2", "=x", "=y", "BARE", "BARE", "B=é ü"}, base...), proj, []string{"hook"}, true},
		{"second HOME ignored", append(append([]string{}, base...), "HOME=/nonexistent"), proj, []string{"hook"}, true},
		{"arguments with spaces, quotes and unicode", base, proj, []string{"hook", "a b", `"q"`, "ü", ""}, true},
		{"no environment besides HOME", []string{"HOME=" + home}, proj, []string{"hook"}, true},
		{"WARDEN_KEEPER=on", append([]string{"WARDEN_KEEPER=on"}, base...), proj, []string{"hook"}, true},
		{"home with a trailing slash", append([]string{"WARDEN_HOME=" + wh + "/"}, base...), proj, []string{"hook"}, false},
		{"home with a dot-dot", append([]string{"WARDEN_HOME=" + wh + "/../.warden"}, base...), proj, []string{"hook"}, false},
		{"home with a double slash", append([]string{"HOME=" + root + "//home"}, base[1:]...), proj, []string{"hook"}, false},
		{"an environment over 256 KiB", append(big, base...), proj, []string{"hook"}, false},
		{"over 4096 entries, some repeated", append(many, base...), proj, []string{"hook"}, false},
		{"repeated keys that take long to compare", append(crafted, base...), proj, []string{"hook"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got [2]seen
			var outs [2]ran
			for i, bin := range []string{fast, slow} {
				k.reset()
				outs[i] = runFront(t, bin, c.dir, c.env, payloadPipe(t, `{"n":1}`), c.args...)
				s := k.requests()
				if len(s) != 1 {
					t.Fatalf("%s: %d requests, want 1", bin, len(s))
				}
				got[i] = s[0]
			}
			if !bytes.Equal(got[0].raw, got[1].raw) {
				f, _ := hookwire.Decode(got[0].raw)
				g, _ := hookwire.Decode(got[1].raw)
				t.Fatalf("fast front sent %+v\nGo front sent  %+v", f, g)
			}
			want := ran{code: 5, stdout: "keeper:" + strings.Join(c.args, " ") + `:{"n":1}`}
			if outs[0] != want || outs[1] != want {
				t.Errorf("fast %+v, Go %+v, want %+v", outs[0], outs[1], want)
			}
			if fastThreads := got[0].threads; (fastThreads == 1) != c.fast {
				t.Errorf("fast front had %d threads while it waited; fast path taken: want %v", fastThreads, c.fast)
			}
			if got[1].threads < 2 {
				t.Errorf("the Go front had %d threads: the check cannot tell the paths apart", got[1].threads)
			}
		})
	}
}

// TestFastFrontHandsOverWhatItCannotFinish: when the keeper declines,
// is not there, or goes silent, the Go front takes over from where the
// fast path stopped: it never asks the keeper twice, never runs a hook the
// keeper took, and runs it itself (warden-core) on an untouched stdin.
func TestFastFrontHandsOverWhatItCannotFinish(t *testing.T) {
	fast, slow := fronts(t)
	home := filepath.Join(t.TempDir(), "home")
	sock := filepath.Join(home, ".warden", "run", "hook.sock")
	env := []string{"HOME=" + home, "PATH=/usr/bin:/bin"}
	coreRan := ran{code: 7, stdout: `core:hook --x:{"n":1}`}
	stopped := ran{code: 0, stderr: "warden: the keeper stopped before it finished; allowing\n"}

	cases := []struct {
		name     string
		answer   func(*hookwire.Request, *os.File, *os.File) []byte
		env      []string
		stdin    func(t *testing.T) *os.File
		want     ran
		requests int
	}{
		{"declined", func(*hookwire.Request, *os.File, *os.File) []byte { return []byte{hookwire.Declined} }, env, nil, coreRan, 1},
		{"silent before reading stdin", func(*hookwire.Request, *os.File, *os.File) []byte { return nil }, env, nil, coreRan, 1},
		{"silent after reading stdin", func(_ *hookwire.Request, in, _ *os.File) []byte { in.Read(make([]byte, 64)); return nil }, env, nil, stopped, 1},
		{"accepted, then silent", func(_ *hookwire.Request, in, _ *os.File) []byte {
			in.Read(make([]byte, 64))
			return []byte{hookwire.Accepted}
		}, env, nil, stopped, 1},
		{"garbage reply", func(*hookwire.Request, *os.File, *os.File) []byte { return []byte{'?'} }, env, nil, coreRan, 1},
		{"keeper off", nil, append([]string{"WARDEN_KEEPER=off"}, env...), nil, coreRan, 0},
		{"stdin a character device", nil, env, func(t *testing.T) *os.File {
			f, err := os.Open(os.DevNull)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			return f
		}, ran{code: 7, stdout: "core:hook --x:"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var k *standIn
			if c.answer != nil {
				k = newStandIn(t, sock, c.answer)
				defer os.Remove(sock)
			}
			for _, bin := range []string{fast, slow} {
				stdin := payloadPipe(t, `{"n":1}`)
				if c.stdin != nil {
					stdin = c.stdin(t)
				}
				if k != nil {
					k.reset()
				}
				got := runFront(t, bin, t.TempDir(), c.env, stdin, "hook", "--x")
				if got != c.want {
					t.Errorf("%s: %+v, want %+v", bin, got, c.want)
				}
				if k != nil && len(k.requests()) != c.requests {
					t.Errorf("%s: %d requests to the keeper, want %d", bin, len(k.requests()), c.requests)
				}
			}
			if k != nil {
				k.ln.Close()
			}
		})
	}
	t.Run("no keeper", func(t *testing.T) {
		for _, bin := range []string{fast, slow} {
			if got := runFront(t, bin, t.TempDir(), env, payloadPipe(t, `{"n":1}`), "hook", "--x"); got != coreRan {
				t.Errorf("%s: %+v, want %+v", bin, got, coreRan)
			}
		}
	})
}

// TestFastFrontWithStdoutOrStderrClosed: a front started with stdout or
// stderr closed must not hand its own socket over as the hook's output
// (the socket would take the lowest free descriptor): the keeper gets
// /dev/null there, which the Go runtime opens, from both fronts.
func TestFastFrontWithStdoutOrStderrClosed(t *testing.T) {
	fast, slow := fronts(t)
	home := filepath.Join(t.TempDir(), "home")
	k := newStandIn(t, filepath.Join(home, ".warden", "run", "hook.sock"), accept)
	env := []string{"HOME=" + home, "PATH=/usr/bin:/bin"}
	for _, c := range []struct{ closed, kinds string }{{"1", "fifo,chardev,fifo"}, {"2", "fifo,fifo,chardev"}} {
		for _, bin := range []string{fast, slow} {
			k.reset()
			got := runFrontWith(t, bin, t.TempDir(), env, payloadPipe(t, `{"n":1}`), c.closed, nil, "hook")
			if got.code != 5 {
				t.Errorf("fd %s closed, %s: %+v, want the keeper's exit 5", c.closed, bin, got)
			}
			s := k.requests()
			var kinds []string
			for _, r := range s {
				kinds = append(kinds, r.kinds)
			}
			if len(s) != 1 || s[0].kinds != c.kinds {
				t.Errorf("fd %s closed, %s: the keeper got descriptors %q, want one request with %s", c.closed, bin, kinds, c.kinds)
			}
		}
	}
}

// TestFastFrontOutlivesSignalsGoIgnores: a signal the Go runtime catches
// and ignores (SIGUSR1, SIGALRM, SIGPIPE, …) arriving while the front
// waits for the keeper does not end it: it still exits with the keeper's
// code, as the Go front does.
func TestFastFrontOutlivesSignalsGoIgnores(t *testing.T) {
	fast, slow := fronts(t)
	home := filepath.Join(t.TempDir(), "home")
	waiting := make(chan struct{})   // the stand-in has the request: the front waits
	signalled := make(chan struct{}) // the test has signalled the front
	newStandIn(t, filepath.Join(home, ".warden", "run", "hook.sock"), func(_ *hookwire.Request, in, _ *os.File) []byte {
		in.Read(make([]byte, 64))
		waiting <- struct{}{}
		<-signalled
		return []byte{hookwire.Accepted, 5}
	})
	env := []string{"HOME=" + home, "PATH=/usr/bin:/bin"}
	for _, sig := range []syscall.Signal{syscall.SIGUSR1, syscall.SIGALRM, syscall.SIGPIPE, syscall.SIGIO} {
		for _, bin := range []string{fast, slow} {
			got := runFrontWith(t, bin, t.TempDir(), env, payloadPipe(t, `{"n":1}`), "", func(p *os.Process) {
				go func() {
					<-waiting
					// A signal the process ignores is dropped when sent; one
					// whose default is to end it has ended it by the time
					// kill returns (the Go front's handler runs on its own).
					p.Signal(sig)
					signalled <- struct{}{}
				}()
			}, "hook")
			if got.code != 5 {
				t.Errorf("%v to %s while it waited: %+v, want the keeper's exit 5", sig, bin, got)
			}
		}
	}
}
