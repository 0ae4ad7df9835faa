package e2e

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" driver, to read warden's store

	"github.com/warden-dev/warden/internal/store/keeper"
	"github.com/warden-dev/warden/internal/testenv"
)

// wardenBin is the warden binary built once by TestMain (wardenErr says why
// not).
var (
	wardenBin string
	wardenErr error
	skipAll   string // reason every test skips (e.g. -short)
)

// TestMain runs the suite in a home of its own (testenv.Isolate), with
// warden built from this tree and the pinned Claude Code installed.
func TestMain(m *testing.M) {
	flag.Parse()
	end := testenv.Isolate()
	if testing.Short() {
		skipAll = "end-to-end suite skipped with -short"
		code := m.Run()
		end()
		os.Exit(code)
	}
	// Build warden and install Claude Code side by side: both take seconds.
	done := make(chan struct{})
	go func() {
		defer close(done)
		var dir string
		if dir, wardenErr = testenv.Build("warden"); wardenErr == nil {
			wardenBin = filepath.Join(dir, "warden")
		}
	}()
	claudeCode.Install()
	<-done
	code := m.Run()
	testenv.Cleanup()
	end()
	os.Exit(code)
}

// Every test calls t.Parallel: each has its own home, store, fake API,
// daemon and tmux server, and spends most of its time waiting on a CLI, a
// daemon or a pacing sleep. One after another they kept under one core
// busy and were the whole suite's critical path (626 s on a quiet 2-core
// machine); go test runs -parallel of them at once (GOMAXPROCS unless
// given: 2 on CI). Four at once beside the rest of the suite failed tests
// on deadlines at load 30 on 2 cores.

// Scenario is one end-to-end run: a prompt, what the fake model answers, and
// the checks. Scenarios are rows of a table (basic_test.go).
type Scenario struct {
	Name   string
	Prompt string
	Script Script
	// Files are created in the project before the run (relative paths).
	Files map[string]string
	// Env adds KEY=VALUE entries to claude's environment.
	Env []string
	// NoWarden runs claude without warden: a settings.json of Settings (or
	// {}) is written instead of running `warden install`. It is the control
	// that proves the harness, the fake API and the CLI work on their own.
	NoWarden bool
	Settings map[string]any
	// Timeout bounds the claude run (default 90 s).
	Timeout time.Duration
	Check   func(t *testing.T, r *Run)
}

// Run is the outcome of a scenario.
type Run struct {
	Dir, Home, Proj string
	API             *fakeAPI
	InstallOutput   string
	Stdout, Stderr  []byte
	ExitCode        int
	Elapsed         time.Duration
	// Lines is claude's --output-format stream-json output, decoded.
	Lines []map[string]any
	// tuiServer is set once a TUI started the run's private tmux server.
	tuiServer bool
}

// runScenario sets up a throw-away HOME and project, installs warden with
// its own installer, starts the fake API and runs `claude -p`.
func runScenario(t *testing.T, sc Scenario) *Run {
	t.Helper()
	r, env, claude := prepareRun(t, sc)
	return r.runPrint(t, sc, env, claude)
}

// prepareRun makes the run's throw-away HOME and project, installs warden
// (unless NoWarden) and starts the fake API. It returns the run, the
// environment claude must get and the claude executable.
func prepareRun(t *testing.T, sc Scenario) (*Run, []string, string) {
	t.Helper()
	if skipAll != "" {
		t.Skip(skipAll)
	}
	claude := requireClaude(t)
	if !sc.NoWarden && wardenErr != nil {
		t.Fatalf("cannot build warden: %v", wardenErr)
	}

	dir := t.TempDir()
	if os.Getenv("WARDEN_E2E_KEEP") != "" {
		var err error
		if dir, err = os.MkdirTemp("", "warden-e2e-"+sc.Name+"-"); err != nil {
			t.Fatal(err)
		}
		t.Logf("run directory (kept): %s", dir)
	}
	r := &Run{Dir: dir, Home: filepath.Join(dir, "home"), Proj: filepath.Join(dir, "proj")}
	// The hooks start a store keeper (internal/store/keeper), as they do
	// for users; it must be gone before the run directory is removed.
	t.Cleanup(func() { _ = keeper.Stop(r.KeeperLock(), 10*time.Second) })
	for _, d := range []string{filepath.Join(r.Home, ".claude"), r.Proj, filepath.Join(dir, "tmp"),
		filepath.Join(dir, "shim"), filepath.Join(dir, "markers")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range sc.Files {
		p := filepath.Join(r.Proj, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := writeRmShim(t, dir, r.Home)
	env := []string{
		"PATH=" + path,
		"HOME=" + r.Home,
		"TERM=" + envOr("TERM", "xterm"),
		"LANG=" + envOr("LANG", "C.UTF-8"),
		"TMPDIR=" + filepath.Join(dir, "tmp"),
		"WARDEN_HOME=" + filepath.Join(r.Home, ".warden"),
	}

	if sc.NoWarden {
		settings := sc.Settings
		if settings == nil {
			settings = map[string]any{}
		}
		b, _ := json.MarshalIndent(settings, "", "  ")
		if err := os.WriteFile(filepath.Join(r.Home, ".claude", "settings.json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	} else {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, wardenBin, "install", "--scope", "user", "--yes")
		cmd.Dir = r.Proj
		// With the pinned claude on PATH, as a user's is, install reads its
		// version and registers exec-form hooks.
		cmd.Env = append(slices.Clone(env[1:]), "PATH="+filepath.Dir(claude)+string(os.PathListSeparator)+path)
		out, err := cmd.CombinedOutput()
		cancel()
		r.InstallOutput = string(out)
		if err != nil {
			t.Fatalf("warden install --scope user --yes: %v\n%s", err, out)
		}
		if _, err := os.Stat(filepath.Join(r.Home, ".claude", "settings.json")); err != nil {
			t.Fatalf("warden install wrote no %s/.claude/settings.json: %v\n%s", r.Home, err, out)
		}
		requireExecForm(t, filepath.Join(r.Home, ".claude", "settings.json"), out)
	}

	r.API = newFakeAPI(sc.Script, map[string]string{"CWD": r.Proj, "HOME": r.Home, "RUN": dir})
	t.Cleanup(r.API.Close)

	env = append(env,
		"ANTHROPIC_BASE_URL="+r.API.URL(),
		"ANTHROPIC_API_KEY=sk-ant-e2e-fake-key-0000000000000000",
		"DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_BUG_COMMAND=1",
	)
	// Claude Code refuses bypassPermissions as root unless told it is sandboxed.
	if os.Geteuid() == 0 {
		env = append(env, "IS_SANDBOX=1")
	}
	env = append(env, sc.Env...)
	return r, env, claude
}

// requireExecForm fails the test unless every hook handler install wrote
// is in exec form (the program in "command", its arguments in "args"), so
// every scenario that passes proves the pinned Claude Code runs them.
func requireExecForm(t *testing.T, settings string, installOut []byte) {
	t.Helper()
	b, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("%s: %v", settings, err)
	}
	n := 0
	for ev, groups := range s.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				n++
				if filepath.Base(h.Command) != "warden" || !slices.Equal(h.Args, []string{"hook", "--harness", "claude"}) {
					t.Fatalf("%s: %s handler %q %q is not warden in exec form\ninstall said:\n%s", settings, ev, h.Command, h.Args, installOut)
				}
			}
		}
	}
	if n == 0 {
		t.Fatalf("%s holds no hook handlers\ninstall said:\n%s", settings, installOut)
	}
}

// runPrint runs `claude -p` for the scenario's prompt and decodes its
// stream-json output.
func (r *Run) runPrint(t *testing.T, sc Scenario, env []string, claude string) *Run {
	t.Helper()
	timeout := sc.Timeout
	if timeout == 0 {
		timeout = 90 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, "-p", sc.Prompt, "--output-format", "stream-json",
		"--verbose", "--permission-mode", "bypassPermissions")
	cmd.Dir = r.Proj
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr // stdin: /dev/null
	killGroupOnCancel(cmd)
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	r.Elapsed = time.Since(start)
	r.Stdout, r.Stderr = stdout.Bytes(), stderr.Bytes()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.ExitCode = ee.ExitCode()
	default:
		t.Fatalf("run claude: %v", err)
	}
	if ctx.Err() != nil {
		r.dump(t)
		t.Fatalf("claude did not finish within %s", timeout)
	}
	sc2 := bufio.NewScanner(bytes.NewReader(r.Stdout))
	sc2.Buffer(make([]byte, 1<<20), 64<<20)
	for sc2.Scan() {
		var m map[string]any
		if json.Unmarshal(sc2.Bytes(), &m) == nil {
			r.Lines = append(r.Lines, m)
		}
	}
	r.save()
	t.Logf("scenario %s: claude ran %.1fs, exit %d, %d API requests", sc.Name, r.Elapsed.Seconds(), r.ExitCode, len(r.API.Requests()))
	t.Cleanup(func() {
		if t.Failed() {
			r.dump(t)
		}
	})
	return r
}

// writeRmShim puts an `rm` first on PATH that refuses (and records) rm of
// "/", a top-level directory or HOME: a safety net, since the suite runs as
// root, for scenarios where a guard under test fails to block.
func writeRmShim(t *testing.T, dir, home string) string {
	t.Helper()
	realPath := os.Getenv("PATH")
	script := fmt.Sprintf(`#!/bin/sh
for a in "$@"; do
  case "$a" in
  -*) continue ;;
  /|/.|/..|'/*'|~|%[1]q|%[1]q/|%[1]q/*) bad=1 ;;
  /*) case "${a#/}" in */*) ;; *) bad=1 ;; esac ;;
  esac
done
if [ -n "${bad:-}" ]; then
  echo "rm $*" >> %[2]q
  echo "rm: refused by e2e shim" >&2
  exit 1
fi
PATH=%[3]q exec rm "$@"
`, home, filepath.Join(dir, "markers", "rm"), realPath)
	if err := os.WriteFile(filepath.Join(dir, "shim", "rm"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "shim") + string(os.PathListSeparator) + realPath
}

// save writes the run's artefacts into its directory (kept with
// WARDEN_E2E_KEEP=1): requests.jsonl (every API request, decoded, with the
// reply), claude.stdout.jsonl and claude.stderr.
func (r *Run) save() {
	os.WriteFile(filepath.Join(r.Dir, "claude.stdout.jsonl"), r.Stdout, 0o644)
	os.WriteFile(filepath.Join(r.Dir, "claude.stderr"), r.Stderr, 0o644)
	var sb bytes.Buffer
	for _, q := range r.API.Requests() {
		b, _ := json.Marshal(map[string]any{"seq": q.Seq, "time": q.Time, "method": q.Method, "path": q.Path,
			"query": q.Query, "header": q.Header, "route": q.Route, "step": q.Step, "body": q.Body, "reply": q.Reply})
		sb.Write(append(b, '\n'))
	}
	os.WriteFile(filepath.Join(r.Dir, "requests.jsonl"), sb.Bytes(), 0o644)
}

// ShimRefused reports whether the rm shim refused a dangerous rm.
func (r *Run) ShimRefused() bool {
	_, err := os.Stat(filepath.Join(r.Dir, "markers", "rm"))
	return err == nil
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// SessionID is the session id claude reported in its stream-json output.
func (r *Run) SessionID() string {
	for _, l := range r.Lines {
		if s, ok := l["session_id"].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// Result is claude's final stream-json "result" line (nil if none).
func (r *Run) Result() map[string]any {
	for i := len(r.Lines) - 1; i >= 0; i-- {
		if r.Lines[i]["type"] == "result" {
			return r.Lines[i]
		}
	}
	return nil
}

// EventRow is one row of warden's events table.
type EventRow struct {
	ID                                     int64
	TsUS                                   int64
	SessionID, Event, Harness, Tool        string
	ToolUseID, AgentID, Cwd, Path          string
	Decision, Rule, Mode, Reason, ErrorMsg string
	LatencyUS                              int64
	SleptMS                                int64 // slept on purpose (pacing)
	DurationMS                             sql.NullInt64
	Raw                                    sql.NullString
}

func (e EventRow) String() string {
	s := fmt.Sprintf("#%d %s session=%s", e.ID, e.Event, e.SessionID)
	for _, kv := range [][2]string{{"tool", e.Tool}, {"tool_use_id", e.ToolUseID}, {"decision", e.Decision},
		{"rule", e.Rule}, {"mode", e.Mode}, {"reason", clip(e.Reason, 80)}, {"error", e.ErrorMsg}} {
		if kv[1] != "" {
			s += fmt.Sprintf(" %s=%q", kv[0], kv[1])
		}
	}
	return s + fmt.Sprintf(" latency=%dµs", e.LatencyUS)
}

// DBPath is warden's store for this run.
// KeeperLock is the lock file of the run's store keeper.
func (r *Run) KeeperLock() string { return filepath.Join(r.Home, ".warden", "locks", "keeper.lock") }

func (r *Run) DBPath() string { return filepath.Join(r.Home, ".warden", "warden.db") }

// Events reads every row of warden's events table, oldest first.
func (r *Run) Events(t *testing.T) []EventRow {
	t.Helper()
	rows, err := r.readEvents()
	if err != nil {
		t.Fatalf("read warden's store: %v", err)
	}
	return rows
}

func (r *Run) readEvents() ([]EventRow, error) {
	if _, err := os.Stat(r.DBPath()); err != nil {
		return nil, fmt.Errorf("no store: %w", err)
	}
	db, err := sql.Open("sqlite", "file:"+r.DBPath()+"?_pragma=busy_timeout(5000)")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rows, err := db.Query(`SELECT id, ts_us, session_id, event, harness, tool, tool_use_id, agent_id,
		cwd, path, decision, rule, mode, reason, error, latency_us, slept_ms, duration_ms, raw FROM events ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []EventRow
	for rows.Next() {
		var e EventRow
		if err := rows.Scan(&e.ID, &e.TsUS, &e.SessionID, &e.Event, &e.Harness, &e.Tool, &e.ToolUseID,
			&e.AgentID, &e.Cwd, &e.Path, &e.Decision, &e.Rule, &e.Mode, &e.Reason, &e.ErrorMsg,
			&e.LatencyUS, &e.SleptMS, &e.DurationMS, &e.Raw); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// dump logs what a failing scenario saw.
func (r *Run) dump(t *testing.T) {
	t.Helper()
	var sb strings.Builder
	fmt.Fprintf(&sb, "run dir: %s\nclaude exit %d after %.1fs\n", r.Dir, r.ExitCode, r.Elapsed.Seconds())
	if r.InstallOutput != "" {
		fmt.Fprintf(&sb, "warden install:\n%s\n", clip(r.InstallOutput, 1500))
	}
	fmt.Fprintf(&sb, "claude stdout (tail):\n%s\n", testenv.Tail(r.Stdout, 4000))
	fmt.Fprintf(&sb, "claude stderr (tail):\n%s\n", testenv.Tail(r.Stderr, 2000))
	if r.API != nil {
		fmt.Fprintf(&sb, "API requests:\n%s", r.API.Summary())
	}
	if evs, err := r.readEvents(); err != nil {
		fmt.Fprintf(&sb, "store: %v\n", err)
	} else {
		sb.WriteString("store events:\n")
		for _, e := range evs {
			sb.WriteString("  " + e.String() + "\n")
		}
	}
	t.Log(sb.String())
}
