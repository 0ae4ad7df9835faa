//go:build unix

package hookserve

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/handlers"
	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/testenv"
)

// TestConcurrentClients: 8 clients, 25 PreToolUse each, through one
// in-process server at once: none declined, exactly 200 rows, an intact
// audit chain, every session's tool counter exact, nothing on stdout or
// stderr. Under -race this is the server's data-race check.
func TestConcurrentClients(t *testing.T) {
	r := newRig(t, Options{})
	const workers, per = 8, 25
	testenv.Concurrently(t, workers, per, func(w, i int) string {
		res := r.do(t, call{args: hookArgs(), stdin: preToolUse(fmt.Sprintf("w%d", w), r.home, fmt.Sprintf("echo %d", i))})
		if res.err != nil || res.declined || res.code != 0 || res.stdout != "" || res.stderr != "" {
			return fmt.Sprintf("%+v", res)
		}
		return ""
	})
	if n := len(r.events(t)); n != workers*per {
		t.Fatalf("%d rows, want %d", n, workers*per)
	}
	ctx := context.Background()
	if n, brk, err := r.st.VerifyChain(ctx); err != nil || brk != nil || n != workers*per {
		t.Errorf("audit chain: %d rows, break %+v, %v", n, brk, err)
	}
	for w := 0; w < workers; w++ {
		sess, err := r.st.Session(ctx, fmt.Sprintf("w%d", w))
		if err != nil || sess == nil || !strings.Contains(string(sess.State), fmt.Sprintf(`"tool_count":%d`, per)) {
			t.Errorf("session w%d: %v %v", w, sess, err)
		}
	}
	if d := r.srv.Declines(); d != 0 {
		t.Errorf("%d declines under 8 concurrent clients", d)
	}
}

// TestEachCallerItsOwnEnvironmentAndDirectory: status lines rendered at
// once for 6 callers, each with its own variable and directory: every
// wrapped command sees its own caller's, never another's (the old keeper
// swapped one process-wide environment and cwd per request).
func TestEachCallerItsOwnEnvironmentAndDirectory(t *testing.T) {
	r := newRig(t, Options{})
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			dir := t.TempDir()
			for j := 0; j < 5; j++ {
				res := r.do(t, call{args: []string{"statusline", "--wrap", `echo "m=$MARK d=$PWD"`}, cwd: dir,
					environ: r.environ(fmt.Sprintf("MARK=c%d", i), "NO_COLOR=1", "COLUMNS=300"),
					stdin:   `{"session_id":"sl","model":{"display_name":"Opus"}}`})
				want := fmt.Sprintf("m=c%d d=%s │ ", i, dir)
				if res.err != nil || res.declined || !strings.HasPrefix(res.stdout, want) {
					t.Errorf("caller %d: %+v, want stdout starting %q", i, res, want)
				}
			}
		}(i)
	}
	wg.Wait()
}

// TestRecreatedWorkingDirectory: a project directory deleted and made
// again. A caller in the new directory gets the new one (the old keeper
// stayed in the old inode and showed it, empty); a caller still in the
// old, deleted one is declined, so its own process runs it there.
func TestRecreatedWorkingDirectory(t *testing.T) {
	r := newRig(t, Options{})
	base := t.TempDir()
	proj := filepath.Join(base, "proj")
	os.Mkdir(proj, 0o755)
	os.WriteFile(filepath.Join(proj, "first-file"), nil, 0o644)
	ls := func(c call) result {
		c.args = []string{"statusline", "--wrap", "ls"}
		c.cwd = proj
		c.environ = r.environ("NO_COLOR=1", "COLUMNS=300")
		c.stdin = `{"session_id":"d"}`
		return r.do(t, c)
	}
	if res := ls(call{}); res.declined || !strings.Contains(res.stdout, "first-file") {
		t.Fatalf("first render: %+v", res)
	}
	// Keep the old directory alive by a handle, as a process still in it does.
	old, err := os.Open(proj)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	oldCopy := filepath.Join(base, "old-inode")
	os.Rename(proj, oldCopy) // the old inode, reachable for stat() by the test
	os.RemoveAll(oldCopy)
	os.Mkdir(proj, 0o755)
	os.WriteFile(filepath.Join(proj, "second-file"), nil, 0o644)
	res := ls(call{})
	if res.declined || !strings.Contains(res.stdout, "second-file") || strings.Contains(res.stdout, "first-file") {
		t.Fatalf("a caller in the re-created directory: %+v, want the new directory's listing", res)
	}
	// A caller whose own directory is another inode than the path names.
	other := t.TempDir()
	if res := ls(call{dirOf: other}); !res.declined {
		t.Fatalf("a caller whose directory is not the one its path names must be declined: %+v", res)
	}
	if !strings.Contains(r.log.String(), "no longer names the caller's directory") {
		t.Errorf("the decline is not logged with its reason: %s", r.log.String())
	}
}

// TestStuckStatusLine: a status line whose stdin never closes ends at the
// read deadline with the fallback line; while it is stuck, hooks are
// answered (the old keeper declined every hook until it closed).
func TestStuckStatusLine(t *testing.T) {
	r := newRig(t, Options{ReadTimeout: 5 * time.Second})
	done := make(chan result, 1)
	go func() {
		done <- r.do(t, call{args: []string{"statusline"}, stdin: `{"model":`, stdinOpen: true,
			environ: r.environ("NO_COLOR=1")})
	}()
	if !waitFor(5*time.Second, func() bool { return len(r.srv.slots) == 1 }) {
		t.Fatal("the status line never started")
	}
	for i := 0; i < 5; i++ {
		res := r.do(t, call{args: hookArgs(), stdin: preToolUse("beside", r.home, "ls")})
		if res.err != nil || res.declined || res.code != 0 || res.stderr != "" {
			t.Fatalf("hook beside a stuck status line: %+v", res)
		}
	}
	select {
	case res := <-done:
		t.Fatalf("the status line ended (%+v) before the hooks beside it: they were not answered while it was stuck", res)
	default:
	}
	select {
	case res := <-done:
		if res.stdinW != nil {
			res.stdinW.Close()
		}
		if res.err != nil || res.declined || res.stdout != "warden\n" {
			t.Fatalf("stuck status line: %+v", res)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a status line whose stdin never closes was never answered")
	}
}

// TestStuckHookClient: a hook whose stdin never closes ends at
// hook.read_timeout_ms, exit 0, recorded with the reason; others pass.
func TestStuckHookClient(t *testing.T) {
	r := newRig(t, Options{})
	os.WriteFile(filepath.Join(r.home, "config.toml"), []byte("[hook]\nread_timeout_ms = 300\n"), 0o600)
	res := r.do(t, call{args: append(hookArgs(), "PreToolUse"), stdin: `{"session_id":"stuck",`, stdinOpen: true})
	if res.stdinW != nil {
		defer res.stdinW.Close()
	}
	if res.err != nil || res.declined || res.code != 0 || !strings.Contains(res.stderr, "stdin not closed within 300ms") {
		t.Fatalf("stuck client: %+v", res)
	}
	evs := r.events(t)
	if len(evs) != 1 || !strings.Contains(evs[0].Error, "stdin not closed") {
		t.Fatalf("the stuck hook's record: %+v", evs)
	}
}

// TestGarbageIsDeclinedAndCounted: requests that are not warden's, or
// that this server must not run, are declined (or dropped), each logged
// and counted; the server keeps answering, and the count reaches the
// store for `warden doctor`.
func TestGarbageIsDeclinedAndCounted(t *testing.T) {
	r := newRig(t, Options{})
	raw := func(b []byte) {
		c, err := net.Dial("unix", r.sock)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.Write(b)
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		var reply [1]byte
		c.Read(reply[:])
		if reply[0] != 'D' {
			t.Errorf("garbage %q: reply %q, want a decline", b, reply[0])
		}
	}
	// A probe (connect, close) is not a request and not a decline.
	if c, err := net.Dial("unix", r.sock); err == nil {
		c.Close()
	}
	raw([]byte("GET / HTTP/1.1\r\n\r\n"))
	raw([]byte("WDNH3\xff\xff\xff\xff"))
	raw([]byte("WDNH3\x00\x00\x00\x00\x00\x00\x00\x01/\x00\x00\x00\x00\x00\x00\x00\x03a,b"))
	for name, c := range map[string]call{
		"unknown command":   {args: []string{"rm", "-rf"}},
		"another store":     {args: hookArgs(), environ: []string{"WARDEN_HOME=/nonexistent/elsewhere"}},
		"relative cwd":      {args: hookArgs(), cwd: "rel/dir"},
		"missing cwd":       {args: hookArgs(), cwd: "/nonexistent/dir"},
		"another umask":     {args: hookArgs(), umask: readUmask() ^ 0o7},
		"statusline --help": {args: []string{"statusline", "--help"}},
	} {
		if res := r.do(t, c); res.err != nil || !res.declined {
			t.Errorf("%s: %+v, want declined", name, res)
		}
	}
	if res := r.do(t, call{args: hookArgs(), stdin: preToolUse("ok", r.home, "ls")}); res.declined || res.code != 0 {
		t.Fatalf("after garbage: %+v", res)
	}
	const want = 9
	if got := r.srv.Declines(); got != want {
		t.Errorf("Declines() = %d, want %d", got, want)
	}
	if n := strings.Count(r.log.String(), "declined a request: "); n != want {
		t.Errorf("%d declines logged, want %d:\n%s", n, want, r.log.String())
	}
	ctx := context.Background()
	if !waitFor(5*time.Second, func() bool {
		v, _, _ := r.st.Setting(ctx, DeclineSetting)
		n, _, _ := ParseDeclines(v)
		return n == want
	}) {
		v, _, _ := r.st.Setting(ctx, DeclineSetting)
		t.Errorf("store count %q, want %d", v, want)
	}
}

// TestBusyWorkersDecline: with one worker held by a stuck client, the
// next request waits QueueWait and is declined (its client runs it), not
// queued without bound.
func TestBusyWorkersDecline(t *testing.T) {
	r := newRig(t, Options{Workers: 1, QueueWait: 30 * time.Millisecond})
	os.WriteFile(filepath.Join(r.home, "config.toml"), []byte("[hook]\nread_timeout_ms = 1000\n"), 0o600)
	done := make(chan result, 1)
	go func() { done <- r.do(t, call{args: hookArgs(), stdin: `{`, stdinOpen: true}) }()
	if !waitFor(5*time.Second, func() bool { return len(r.srv.slots) == 1 }) {
		t.Fatal("the stuck client never held the worker")
	}
	if res := r.do(t, call{args: hookArgs(), stdin: preToolUse("b", r.home, "ls")}); !res.declined {
		t.Fatalf("with every worker busy: %+v, want declined", res)
	}
	if !strings.Contains(r.log.String(), "all 1 workers busy") {
		t.Errorf("log: %s", r.log.String())
	}
	if res := <-done; res.stdinW != nil {
		res.stdinW.Close()
	}
}

// sleeper asks for a pacing sleep of d on every Notification.
func sleeper(d time.Duration) pipeline.Handler {
	return pipeline.Handler{Name: "test-sleep", Events: []event.Name{event.Notification},
		Run: func(ctx context.Context, c *pipeline.Call) (event.Decision, error) {
			return event.Decision{Sleep: d, Reason: "test pacing"}, nil
		}}
}

// TestClientGoneEndsTheSleep: a pacing sleep in the server listens to its
// client: when the client goes (Claude Code's SIGTERM killed it, its
// socket closed), the sleep ends and the event is recorded with the time
// actually slept.
func TestClientGoneEndsTheSleep(t *testing.T) {
	r := newRig(t, Options{Handlers: append(handlers.All(), sleeper(30*time.Second))})
	start := time.Now()
	res := r.do(t, call{args: hookArgs(), stdin: `{"session_id":"z","hook_event_name":"Notification","message":"x"}`,
		hangUp: 300 * time.Millisecond})
	if res.err != nil || res.declined {
		t.Fatalf("%+v", res)
	}
	var evs []eventRow
	if !waitFor(10*time.Second, func() bool { evs = rows(t, r); return len(evs) == 1 }) {
		t.Fatalf("no record after the client left: %+v", evs)
	}
	if evs[0].slept < 250 || evs[0].slept > 5000 || time.Since(start) > 8*time.Second {
		t.Fatalf("slept %d ms; the sleep should end when the client left after ~300 ms", evs[0].slept)
	}
}

type eventRow struct{ slept int64 }

func rows(t *testing.T, r *rig) []eventRow {
	var out []eventRow
	for _, e := range r.events(t) {
		out = append(out, eventRow{slept: e.SleptMS})
	}
	return out
}

// TestShutdownDrains: Shutdown stops new requests, waits for the running
// hook to finish and record, and only then returns (the store is closed
// after it): the record is there, no error about a closed store.
func TestShutdownDrains(t *testing.T) {
	r := newRig(t, Options{Handlers: append(handlers.All(), sleeper(700*time.Millisecond))})
	done := make(chan result, 1)
	go func() {
		done <- r.do(t, call{args: hookArgs(), stdin: `{"session_id":"drain","hook_event_name":"Notification","message":"x"}`})
	}()
	if !waitFor(5*time.Second, func() bool { return len(r.srv.slots) == 1 }) {
		t.Fatal("the request never started")
	}
	start := time.Now()
	if err := r.srv.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el < 300*time.Millisecond {
		t.Errorf("Shutdown returned after %v, before the running hook's sleep ended", el)
	}
	evs := r.events(t)
	if len(evs) != 1 || evs[0].Error != "" || evs[0].SleptMS < 300 {
		t.Fatalf("the drained hook's record: %+v", evs)
	}
	if res := <-done; res.err != nil || res.code != 0 {
		t.Fatalf("the drained hook's client: %+v", res)
	}
	if _, err := net.Dial("unix", r.sock); err == nil {
		t.Error("the socket still answers after Shutdown")
	}
}

// TestThresholdHandoffsLeaveNoZombies: 3 sessions cross the context
// threshold through the server's status line; each starts one detached
// `handoff auto` (this test binary, see TestMain), which exits at once.
// The server reaps all 3: no child of this process is left, zombie or
// not (before, every one stayed <defunct> until the keeper exited).
func TestThresholdHandoffsLeaveNoZombies(t *testing.T) {
	r := newRig(t, Options{})
	if kids := children(t); len(kids) != 0 {
		t.Fatalf("children before the test: %v", kids)
	}
	logFile := filepath.Join(r.home, "handoffs.log")
	proj := t.TempDir()
	for i := 1; i <= 3; i++ {
		// A render whose store access misses its 300 ms budget (a loaded
		// machine, the race detector) claims nothing and the next render
		// fires: render until this session's handoff ran.
		ran := func() bool {
			b, _ := os.ReadFile(logFile)
			return strings.Contains(string(b), fmt.Sprintf("--session s%d ", i))
		}
		for try := 0; try < 10 && !ran(); try++ {
			res := r.do(t, call{args: []string{"statusline"}, cwd: proj,
				environ: r.environ("NO_COLOR=1", "HANDOFF_LOG="+logFile),
				stdin:   fmt.Sprintf(`{"session_id":"s%d","cwd":%q,"model":{"display_name":"Opus"},"context_window":{"used_percentage":88}}`, i, proj)})
			if res.err != nil || res.declined || !strings.Contains(res.stdout, "⚠ CTX 88%") {
				t.Fatalf("session %d: %+v", i, res)
			}
			waitFor(2*time.Second, ran)
		}
	}
	if !waitFor(10*time.Second, func() bool {
		b, _ := os.ReadFile(logFile)
		return strings.Count(string(b), "\n") == 3
	}) {
		b, _ := os.ReadFile(logFile)
		t.Fatalf("3 handoffs should have run, log: %q", b)
	}
	if !waitFor(10*time.Second, func() bool { return len(children(t)) == 0 }) {
		t.Fatalf("children left behind (Z = zombie): %v", children(t))
	}
	b, _ := os.ReadFile(logFile)
	for i := 1; i <= 3; i++ {
		if !strings.Contains(string(b), fmt.Sprintf("--session s%d --project %s", i, proj)) {
			t.Errorf("handoff of s%d missing: %q", i, b)
		}
	}
}

// TestDenyThroughTheServer keeps the deny path honest through the server:
// a denied call gets exactly one JSON object on stdout, exit 0.
func TestDenyThroughTheServer(t *testing.T) {
	r := newRig(t, Options{})
	res := r.do(t, call{args: hookArgs(), stdin: preToolUse("deny", r.home, "rm -rf /")})
	if res.err != nil || res.declined || res.code != 0 {
		t.Fatalf("%+v", res)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(res.stdout), &out); err != nil || !strings.Contains(res.stdout, `"deny"`) {
		t.Fatalf("stdout %q: %v", res.stdout, err)
	}
}

// TestParallelHooksOfOneSession: Claude Code's parallel tool calls are one
// session's hooks at once; through the server every state update survives
// (the session's turn in process, its flock across processes).
func TestParallelHooksOfOneSession(t *testing.T) {
	r := newRig(t, Options{})
	const callers, per = 8, 10
	var wg sync.WaitGroup
	for w := 0; w < callers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < per; i++ {
				if res := r.do(t, call{args: hookArgs(), stdin: preToolUse("one", r.home, fmt.Sprintf("echo %d-%d", w, i))}); res.err != nil || res.declined || res.code != 0 {
					t.Errorf("%d/%d: %+v", w, i, res)
				}
			}
		}(w)
	}
	wg.Wait()
	r.settle(t)
	sess, err := r.st.Session(context.Background(), "one")
	if err != nil || sess == nil || !strings.Contains(string(sess.State), fmt.Sprintf(`"tool_count":%d`, callers*per)) {
		t.Fatalf("session state after %d parallel hooks: %v %v", callers*per, sess, err)
	}
}

// A server whose socket was replaced by another's (its warden home was
// removed under it and a new keeper started there) leaves the new
// socket when it shuts down; the last one removes its own.
func TestShutdownLeavesAnotherServersSocket(t *testing.T) {
	a := newRig(t, Options{})
	b := New(Options{DBPath: filepath.Join(a.home, "warden.db"), Store: a.st, Log: a.log})
	ln, err := Listen(a.sock) // replaces a's socket file, as a new keeper's does
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- b.Serve(ln) }()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("unix", a.sock)
	if err != nil {
		t.Fatalf("the new server's socket went with the old server: %v", err)
	}
	c.Close()
	if err := b.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-served; err != ErrServerClosed {
		t.Errorf("Serve returned %v", err)
	}
	if _, err := os.Stat(a.sock); !os.IsNotExist(err) {
		t.Errorf("the last server left its socket: %v", err)
	}
}
