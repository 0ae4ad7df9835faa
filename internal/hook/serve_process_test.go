//go:build unix

package hook

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
	"github.com/warden-dev/warden/internal/testenv"
)

// served is a warden home with a keeper answering hooks, and a front
// `warden` binary with no warden-core beside it: a hook the keeper does
// not answer cannot run anywhere else and fails open with "warden-core is
// missing", so every answer these tests see came from the keeper.
type served struct {
	home, front, core string
	env               []string
	keeper            *testenv.Keeper
}

func newServed(t *testing.T) *served {
	t.Helper()
	dir := testenv.Binaries(t, "warden")
	s := &served{home: t.TempDir(), front: testenv.Alone(t, filepath.Join(dir, "warden")), core: filepath.Join(dir, "warden-core")}
	sqlitetest.Create(t, filepath.Join(s.home, "warden.db"))
	s.env = append(testenv.EnvWithout("WARDEN_KEEPER", "WARDEN_HOME", "CLAUDE_PROJECT_DIR"), "WARDEN_HOME="+s.home)
	s.keeper = testenv.StartKeeper(t, s.core, s.home, s.env)
	return s
}

// hook runs the front binary with payload on stdin.
func (s *served) hook(t *testing.T, payload string, extraEnv ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(s.front, "hook", "--harness", "claude")
	cmd.Env = append(append([]string{}, s.env...), extraEnv...)
	cmd.Stdin = strings.NewReader(payload)
	return testenv.Run(t, cmd)
}

// startHook starts the front's hook with stdin from a pipe the test
// writes (and may never close): the hook's process, the pipe's ends and
// the hook's stderr.
func (s *served) startHook(t *testing.T) (hook *exec.Cmd, pr, pw *os.File, stderr *strings.Builder) {
	t.Helper()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pw.Close() })
	hook = exec.Command(s.front, "hook")
	hook.Env = s.env
	hook.Stdin = pr
	stderr = &strings.Builder{}
	hook.Stderr = stderr
	if err := hook.Start(); err != nil {
		t.Fatal(err)
	}
	return hook, pr, pw, stderr
}

func bashPayload(session, cwd, command string) string {
	return fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"t-%s","tool_input":{"command":%q}}`,
		session, cwd, command, command)
}

// TestKeeperAnswersHooks: an allowed call is silent and recorded, a denied
// one gets the deny JSON on stdout, both exit 0, both answered by the
// keeper (the front has no warden-core to fall back on).
func TestKeeperAnswersHooks(t *testing.T) {
	s := newServed(t)
	out, errOut, code := s.hook(t, bashPayload("s1", "/tmp", "ls -la"))
	if out != "" || errOut != "" || code != 0 {
		t.Fatalf("allowed call: stdout=%q stderr=%q code=%d", out, errOut, code)
	}
	out, errOut, code = s.hook(t, bashPayload("s1", "/tmp", "rm -rf /"))
	if code != 0 || !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "core.shell:rm-root") {
		t.Fatalf("denied call: stdout=%q stderr=%q code=%d", out, errOut, code)
	}
	evs := events(t, s.home)
	if len(evs) != 2 {
		t.Fatalf("want 2 rows, got %d: %+v", len(evs), evs)
	}
	got := map[string]string{}
	for _, e := range evs {
		got[e.ToolUseID] = e.Decision + " " + e.Rule
	}
	if got["t-ls -la"] != "allow " || got["t-rm -rf /"] != "deny core.shell:rm-root" {
		t.Fatalf("rows: %v", got)
	}
}

// TestKeeperRunsEachHookInItsCallersEnvironment: the keeper runs hooks of
// different projects one after another; each sees its own
// CLAUDE_PROJECT_DIR (or, without it, its own working directory) and so
// its own project rules, never the previous caller's.
func TestKeeperRunsEachHookInItsCallersEnvironment(t *testing.T) {
	s := newServed(t)
	withRule, plain := t.TempDir(), t.TempDir()
	rules := filepath.Join(withRule, ".warden", "rules")
	if err := os.MkdirAll(rules, 0o755); err != nil {
		t.Fatal(err)
	}
	rule := "[[rule]]\nid = \"team.test:no-deploy\"\ndescription = \"deploys go through CI\"\nmode = \"deny\"\ncommands = [\"deploy-now\"]\n"
	if err := os.WriteFile(filepath.Join(rules, "team.toml"), []byte(rule), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, tc := range []struct {
		project string
		deny    bool
	}{{withRule, true}, {plain, false}, {withRule, true}, {plain, false}} {
		out, errOut, code := s.hook(t, bashPayload("s2", "/tmp", "deploy-now"), "CLAUDE_PROJECT_DIR="+tc.project)
		if code != 0 || strings.Contains(out, "team.test:no-deploy") != tc.deny || errOut != "" {
			t.Fatalf("call %d in %s: want deny=%v, got stdout=%q stderr=%q code=%d", i, tc.project, tc.deny, out, errOut, code)
		}
	}
	// Without CLAUDE_PROJECT_DIR the caller's directory is the project.
	cmd := exec.Command(s.front, "hook")
	cmd.Env, cmd.Dir = s.env, withRule
	cmd.Stdin = strings.NewReader(bashPayload("s2", withRule, "deploy-now"))
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), "team.test:no-deploy") {
		t.Fatalf("call from the project directory: %v %q", err, out)
	}
}

// TestStuckClientHoldsNoOne: while one hook's stdin is never closed (it
// waits out its read deadline in the keeper), the next hook is answered
// by the keeper at once (this front has no warden-core to fall back on);
// the stuck one ends by its read deadline with exit 0.
func TestStuckClientHoldsNoOne(t *testing.T) {
	s := newServed(t)
	if err := os.WriteFile(filepath.Join(s.home, "config.toml"), []byte("[hook]\nread_timeout_ms = 4000\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	slow, pr, pw, slowErr := s.startHook(t)
	pr.Close()
	io.WriteString(pw, `{"session_id":"slow",`) // and never more, never closed

	slowDone := make(chan error, 1)
	go func() { slowDone <- slow.Wait() }()
	if out, errOut, code := s.hook(t, bashPayload("s3", "/tmp", "ls")); out != "" || errOut != "" || code != 0 {
		t.Fatalf("a hook beside a stuck one: stdout=%q stderr=%q code=%d", out, errOut, code)
	}
	select {
	case err := <-slowDone:
		t.Fatalf("the stuck hook ended (%v) before the one beside it was answered", err)
	default:
	}
	if err := <-slowDone; err != nil {
		t.Fatalf("the hook whose stdin never closed: %v\n%s", err, slowErr.String())
	}
	if !strings.Contains(slowErr.String(), "stdin not closed within 4s") {
		t.Fatalf("the slow hook's stderr: %q", slowErr.String())
	}
}

// TestKeeperKilledMidHookAllows: a keeper that dies while it runs a hook
// leaves its client to allow (exit 0, one line), not to hang or block.
func TestKeeperKilledMidHookAllows(t *testing.T) {
	s := newServed(t)
	hook, pr, pw, errOut := s.startHook(t)
	defer pr.Close()
	// Kill the keeper once it has taken the hook, not at a guessed moment:
	// before that, the client would just run the hook itself and this
	// would test nothing. The keeper reads stdin only after it told the
	// client it took the request, so the first byte of the payload leaving
	// the pipe (the test keeps its read end only to look) is the sign.
	if _, err := pw.Write([]byte("{")); err != nil {
		t.Fatal(err)
	}
	if !waitDrained(pr, 10*time.Second) {
		t.Fatal("the keeper never read the hook's stdin")
	}
	s.keeper.Process.Kill()
	if err := hook.Wait(); err != nil {
		t.Fatalf("client of a killed keeper: %v", err)
	}
	if !strings.Contains(errOut.String(), "keeper stopped before it finished; allowing") {
		t.Fatalf("stderr: %q", errOut.String())
	}
}

// TestConcurrentHooksThroughTheKeeper: 8 clients, 50 events each, through
// one keeper: exactly 400 rows, an intact audit chain, every session's
// tool counter exact, nothing surfaced to Claude Code. A declined hook
// would run in warden-core, so this front has one.
func TestConcurrentHooksThroughTheKeeper(t *testing.T) {
	s := newServed(t)
	s.front = filepath.Join(filepath.Dir(s.core), "warden")
	const workers, perWorker = 8, 50
	testenv.Concurrently(t, workers, perWorker, func(w, i int) string {
		out, errOut, code := s.hook(t, bashPayload(fmt.Sprintf("w%d", w), "/tmp", fmt.Sprintf("echo %d-%d", w, i)))
		if out != "" || errOut != "" || code != 0 {
			return fmt.Sprintf("stdout=%q stderr=%q code=%d", out, errOut, code)
		}
		return ""
	})
	checkConcurrentWriters(t, s.home, workers, perWorker)
}

// TestKeeperRendersTheStatusLine: `warden statusline` is answered by the
// keeper too (Claude Code runs it on every update), and a wrapped command
// runs with its caller's environment and directory, not the keeper's.
func TestKeeperRendersTheStatusLine(t *testing.T) {
	s := newServed(t)
	dir := t.TempDir()
	cmd := exec.Command(s.front, "statusline", "--wrap", `echo "old-$WRAP_MARK-$(basename "$PWD")"`)
	cmd.Env = append(append([]string{}, s.env...), "WRAP_MARK=m42", "NO_COLOR=1", "COLUMNS=200")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(`{"session_id":"sl","model":{"display_name":"Opus"},"context_window":{"used_percentage":8},"workspace":{"current_dir":"/tmp"}}`)
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil || e.Len() > 0 {
		t.Fatalf("statusline: %v, stderr %q", err, e.String())
	}
	want := "old-m42-" + filepath.Base(dir)
	if !strings.HasPrefix(o.String(), want+" │ ") || !strings.Contains(o.String(), "[Opus]") {
		t.Fatalf("status line %q: want the wrapped %q first, then warden's segments", o.String(), want)
	}
	// Help and unknown flags are warden-core's to answer: declined, and
	// this front has no warden-core, so it says so on stdout.
	cmd = exec.Command(s.front, "statusline", "--bogus")
	cmd.Env = s.env
	cmd.Stdin = strings.NewReader(`{}`)
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), "warden-core is missing") {
		t.Fatalf("statusline --bogus: %v %q", err, out)
	}
}

// waitSocket waits until process pid has a socket open (on Linux, in
// /proc/PID/fd; elsewhere it waits a fixed 300 ms, the best it can do).
