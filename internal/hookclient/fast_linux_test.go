//go:build linux && (amd64 || arm64)

package hookclient_test

import (
	"bytes"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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

// front is a warden binary to run, under an emulator for another
// architecture (qemu-user) or natively.
type front struct {
	path, emulator, arch string
	// alone is how many threads the process has while the fast path
	// waits (before any Go runtime): 1, and qemu's own beside it.
	alone int
}

func (f front) String() string { return f.path }

// forEachArch runs test with the fronts of every architecture the fast
// path exists for: this machine's natively, and the other (linux/arm64 on
// amd64, or the reverse) under qemu-user when this machine can run it.
// Under CI a missing qemu fails the test.
func forEachArch(t *testing.T, test func(t *testing.T, fast, slow front)) {
	for _, arch := range []string{"amd64", "arm64"} {
		t.Run(arch, func(t *testing.T) {
			fast, slow := fronts(t, arch)
			test(t, fast, slow)
		})
	}
}

// fronts returns the front for arch with the fast path (for this
// machine's, the one `make build` linked) and the one without, each in
// its own directory beside a stand-in warden-core.
func fronts(t *testing.T, arch string) (fast, slow front) {
	t.Helper()
	fast = front{path: filepath.Join(t.TempDir(), "fast", "warden"), arch: arch, alone: 1}
	slow = front{path: filepath.Join(t.TempDir(), "slow", "warden"), arch: arch}
	if arch == runtime.GOARCH {
		dir := testenv.Binaries(t, "warden") // linked as `make build` links it
		copyFile(t, filepath.Join(dir, "warden"), fast.path)
	} else {
		q := "qemu-" + map[string]string{"arm64": "aarch64", "amd64": "x86_64"}[arch] + "-static"
		qemu := testenv.RequireCommand(t, q, "qemu-user-static")
		fast.emulator, slow.emulator = qemu, qemu
		fast.alone = 2 // qemu-user runs a thread per guest thread, and its RCU thread
		build(t, fast.path, arch, "-ldflags", "-E "+testenv.Module+"/internal/hookclient.entry")
	}
	build(t, slow.path, arch)
	// warden-core stand-in: what runs when no keeper takes the hook. It
	// proves stdin reached it whole.
	core := "#!/bin/sh\nprintf 'core:%s:' \"$*\"\ncat\nexit 7\n"
	for _, f := range []front{fast, slow} {
		os.WriteFile(filepath.Join(filepath.Dir(f.path), "warden-core"), []byte(core), 0o755)
	}
	return fast, slow
}

// build builds cmd/warden for linux/arch into path.
func build(t *testing.T, path, arch string, flags ...string) {
	t.Helper()
	cmd := exec.Command("go", append(append([]string{"build", "-o", path}, flags...), testenv.Module+"/cmd/warden")...)
	cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH="+arch, "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/warden for %s: %v\n%s", arch, err, out)
	}
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

func runFront(t *testing.T, bin front, dir string, env []string, stdin *os.File, args ...string) ran {
	t.Helper()
	return runFrontWith(t, bin, dir, env, stdin, "", nil, args...)
}

// runFrontWith is runFront with stdout or stderr closed in the front
// (closed "1" or "2"), and started gets the process once it runs.
func runFrontWith(t *testing.T, bin front, dir string, env []string, stdin *os.File, closed string, started func(*os.Process), args ...string) ran {
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
	exe, argv := bin.path, append([]string{bin.path}, args...)
	if bin.emulator != "" {
		exe, argv = bin.emulator, append([]string{bin.emulator}, argv...)
	}
	p, err := os.StartProcess(exe, argv, &os.ProcAttr{Dir: dir, Env: env, Files: files})
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
	forEachArch(t, testFastFrontSendsWhatTheGoFrontSends)
}

func testFastFrontSendsWhatTheGoFrontSends(t *testing.T, fast, slow front) {
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
		{"WARDEN_KEEPER=offf", append([]string{"WARDEN_KEEPER=offf"}, base...), proj, []string{"statusline"}, true},
		{"WARDEN_KEEPER=n", append([]string{"WARDEN_KEEPER=n"}, base...), proj, []string{"hook"}, true},
		{"home with a trailing slash", append([]string{"WARDEN_HOME=" + wh + "/"}, base...), proj, []string{"hook"}, false},
		{"home with a dot-dot", append([]string{"WARDEN_HOME=" + wh + "/../.warden"}, base...), proj, []string{"hook"}, false},
		{"home with a double slash", append([]string{"HOME=" + root + "//home"}, base[1:]...), proj, []string{"hook"}, false},
		{"an environment over 256 KiB", append(big, base...), proj, []string{"hook"}, false},
		{"over 4096 entries, some repeated", append(many, base...), proj, []string{"hook"}, false},
		{"repeated keys that take long to compare", append(crafted, base...), proj, []string{"hook"}, false},
	}
	// Environments with a key twice: amd64 drops the repeats as
	// os.Environ does, arm64 leaves them to the Go front; qemu-user
	// shows a process each key once (the last), so not under it.
	repeats := map[string]bool{"duplicate keys, empty and bare entries": true, "second HOME ignored": true}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if repeats[c.name] {
				if fast.emulator != "" {
					t.Skip("qemu-user shows a process each key once: repeats cannot reach it")
				}
				c.fast = fast.arch == "amd64"
			}
			var got [2]seen
			var outs [2]ran
			for i, bin := range []front{fast, slow} {
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
			if fastThreads := got[0].threads; (fastThreads == fast.alone) != c.fast {
				t.Errorf("fast front had %d threads while it waited; fast path taken: want %v", fastThreads, c.fast)
			}
			if got[1].threads <= fast.alone {
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
	forEachArch(t, testFastFrontHandsOverWhatItCannotFinish)
}

func testFastFrontHandsOverWhatItCannotFinish(t *testing.T, fast, slow front) {
	home := filepath.Join(testenv.ShortDir(t), "home")
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
			for _, bin := range []front{fast, slow} {
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
	t.Run("keeper off, every spelling; other commands", func(t *testing.T) {
		k := newStandIn(t, sock, accept)
		defer os.Remove(sock)
		defer k.ln.Close()
		for _, c := range []struct {
			env  []string
			args []string
			want ran
		}{
			{append([]string{"WARDEN_KEEPER=0"}, env...), []string{"hook", "--x"}, coreRan},
			{append([]string{"WARDEN_KEEPER=false"}, env...), []string{"hook", "--x"}, coreRan},
			{append([]string{"WARDEN_KEEPER=no"}, env...), []string{"hook", "--x"}, coreRan},
			{env, []string{"hooks", "--x"}, ran{code: 7, stdout: `core:hooks --x:{"n":1}`}},
			{env, []string{"status", "--x"}, ran{code: 7, stdout: `core:status --x:{"n":1}`}},
		} {
			for _, bin := range []front{fast, slow} {
				k.reset()
				got := runFront(t, bin, t.TempDir(), c.env, payloadPipe(t, `{"n":1}`), c.args...)
				wantReqs := 0
				if c.want.code == 5 {
					wantReqs = 1
				}
				if got != c.want || len(k.requests()) != wantReqs {
					t.Errorf("%s with %v %v: %+v and %d requests, want %+v and %d", bin, c.env[0], c.args, got, len(k.requests()), c.want, wantReqs)
				}
			}
		}
	})
	t.Run("the first WARDEN_KEEPER counts", func(t *testing.T) {
		if fast.emulator != "" {
			t.Skip("qemu-user shows a process each key once: repeats cannot reach it")
		}
		k := newStandIn(t, sock, accept)
		defer os.Remove(sock)
		defer k.ln.Close()
		for _, bin := range []front{fast, slow} {
			k.reset()
			got := runFront(t, bin, t.TempDir(), append([]string{"WARDEN_KEEPER=on", "WARDEN_KEEPER=off"}, env...), payloadPipe(t, `{"n":1}`), "hook", "--x")
			if want := (ran{code: 5, stdout: `keeper:hook --x:{"n":1}`}); got != want || len(k.requests()) != 1 {
				t.Errorf("%s: %+v and %d requests, want %+v and 1", bin, got, len(k.requests()), want)
			}
		}
	})
	t.Run("declined: warden-core gets the signals as the front got them", func(t *testing.T) {
		// The fast path ignores some signals while it waits and puts them
		// back before the Go runtime starts. The runtime installs its own
		// handlers over most, but keeps an inherited SIG_IGN for SIGHUP
		// and SIGINT, and exec passes SIG_IGN on: a fast path that left
		// one ignored would hand warden-core a process that ignores it.
		// warden-core reports its ignored signals; the Go front's child is
		// the reference.
		k := newStandIn(t, sock, func(*hookwire.Request, *os.File, *os.File) []byte { return []byte{hookwire.Declined} })
		defer os.Remove(sock)
		defer k.ln.Close()
		var got [2]string
		for i, bin := range []front{fast, slow} {
			core := filepath.Join(filepath.Dir(bin.path), "warden-core")
			orig, _ := os.ReadFile(core)
			os.WriteFile(core, []byte("#!/bin/sh\ngrep SigIgn /proc/$$/status\n"), 0o755)
			got[i] = runFront(t, bin, t.TempDir(), env, payloadPipe(t, `{"n":1}`), "hook").stdout
			os.WriteFile(core, orig, 0o755)
		}
		if got[0] != got[1] || !strings.HasPrefix(got[0], "SigIgn:") {
			t.Errorf("warden-core's ignored signals: after the fast front %q, after the Go front %q", got[0], got[1])
		}
	})
	t.Run("no keeper", func(t *testing.T) {
		for _, bin := range []front{fast, slow} {
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
	forEachArch(t, testFastFrontWithStdoutOrStderrClosed)
}

func testFastFrontWithStdoutOrStderrClosed(t *testing.T, fast, slow front) {
	home := filepath.Join(testenv.ShortDir(t), "home")
	k := newStandIn(t, filepath.Join(home, ".warden", "run", "hook.sock"), accept)
	env := []string{"HOME=" + home, "PATH=/usr/bin:/bin"}
	for _, c := range []struct{ closed, kinds string }{{"1", "fifo,chardev,fifo"}, {"2", "fifo,fifo,chardev"}} {
		for _, bin := range []front{fast, slow} {
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
	forEachArch(t, testFastFrontOutlivesSignalsGoIgnores)
}

func testFastFrontOutlivesSignalsGoIgnores(t *testing.T, fast, slow front) {
	home := filepath.Join(testenv.ShortDir(t), "home")
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
		for _, bin := range []front{fast, slow} {
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
