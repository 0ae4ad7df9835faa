package testenv

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Main runs a package's tests in a home of their own and exits with their
// code: every package's TestMain calls it (TestEveryPackageIsIsolated
// checks), so no test reads or writes the developer's warden, config,
// store, transcripts or credentials, nor runs the warden or claude that
// happens to be on PATH. See Isolate for what changes. env (KEY=VALUE) is
// set after it, for the whole package: what every test there needs, such
// as WARDEN_KEEPER=off.
func Main(m *testing.M, env ...string) {
	end := Isolate()
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		os.Setenv(k, v)
	}
	code := m.Run()
	Cleanup()
	end()
	os.Exit(code)
}

// Shadowed are the programs a test never takes from the developer's PATH:
// warden itself (tests run the binaries Build makes from this tree), and
// the agent CLIs and usage tools a user may have installed (tests that
// need one get the pinned copy explicitly, e.g. ClaudeCode.Require). A
// name ending in "-" covers every program that starts with it.
var Shadowed = []string{"warden", "warden-", "claude", "ccusage", "codex", "gemini", "copilot"}

// Isolate makes this test process's environment a fresh user's, for the
// process and every child it starts, and returns a func that removes the
// home it made:
//
//   - HOME is a new empty directory with only a git identity in it (tests
//     commit; the developer's ~/.gitconfig is not theirs), and the XDG
//     directories are inside it; XDG_RUNTIME_DIR is a new 0700 directory.
//   - The developer's warden, Claude Code and agent settings are unset:
//     WARDEN_* (but WARDEN_TEST_* and WARDEN_E2E_CACHE, which the suite's
//     runner sets), CLAUDE_*, CLAUDECODE, ANTHROPIC_*, the other agent
//     CLIs' keys, and TMUX/TMUX_PANE (a test inside the developer's tmux
//     must not reach its server), and GIT_DIR-style variables a git hook
//     exports.
//   - PATH keeps its directories, but one holding a Shadowed program is
//     replaced by a copy of links to everything else in it.
//   - What the toolchain and the pinned npm tools keep under the real home
//     stays where it is: GOCACHE, GOMODCACHE, GOPATH and GOENV are pinned
//     to their values before the switch, as are the npm cache and
//     WARDEN_E2E_CACHE (CacheRoot), so nothing is built or downloaded twice.
//   - The go command's telemetry is off in the new home (it would write
//     there after the test, from a detached child).
//   - TMPDIR and TZ are left as they are: the suite must pass with TMPDIR
//     unset or deep, and in any time zone.
//
// A test that wants a home of its own within this one still sets HOME,
// WARDEN_HOME or CLAUDE_CONFIG_DIR with t.Setenv or on the child's Env.
func Isolate() (end func()) {
	keep := pinnedOutside()
	sweepStaleHomes(os.TempDir(), time.Now())
	root, err := os.MkdirTemp("", homePrefix)
	if err != nil {
		panic("testenv: " + err.Error())
	}
	if err := writeOwner(root); err != nil {
		panic("testenv: " + err.Error())
	}
	home := filepath.Join(root, "home")
	runtimeDir := filepath.Join(root, "run")
	for _, d := range []string{home, filepath.Join(home, ".config"), filepath.Join(home, ".local", "share"),
		filepath.Join(home, ".local", "state"), filepath.Join(home, ".cache"), runtimeDir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			panic("testenv: " + err.Error())
		}
	}
	// The go command counts its own use under the user's config dir and
	// starts a detached child that keeps writing there after the test has
	// ended — after its home is removed, so the home came back as a stray
	// folder of counters in /tmp for most test processes that ran `go`.
	// Telemetry off in the test home writes nothing and starts no child.
	telemetry := filepath.Join(home, ".config", "go", "telemetry")
	if err := os.MkdirAll(telemetry, 0o700); err != nil {
		panic("testenv: " + err.Error())
	}
	if err := os.WriteFile(filepath.Join(telemetry, "mode"), []byte("off"), 0o600); err != nil {
		panic("testenv: " + err.Error())
	}
	gitconfig := "[user]\n\tname = warden tests\n\temail = tests@warden.invalid\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n[tag]\n\tgpgsign = false\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(gitconfig), 0o600); err != nil {
		panic("testenv: " + err.Error())
	}
	path, err := shadowPath(os.Getenv("PATH"), filepath.Join(root, "path"))
	if err != nil {
		panic("testenv: " + err.Error())
	}

	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if foreign(name) {
			os.Unsetenv(name)
		}
	}
	set := map[string]string{
		"HOME":            home,
		"XDG_CONFIG_HOME": filepath.Join(home, ".config"),
		"XDG_DATA_HOME":   filepath.Join(home, ".local", "share"),
		"XDG_STATE_HOME":  filepath.Join(home, ".local", "state"),
		"XDG_CACHE_HOME":  filepath.Join(home, ".cache"),
		"XDG_RUNTIME_DIR": runtimeDir,
		"PATH":            path,
	}
	for k, v := range keep {
		set[k] = v
	}
	for k, v := range set {
		os.Setenv(k, v)
	}
	var once sync.Once
	end = func() { once.Do(func() { os.RemoveAll(root) }) }
	endsMu.Lock()
	ends = append(ends, end)
	endsMu.Unlock()
	return end
}

// ends are the removals of the homes Isolate made in this process, for
// Exit.
var (
	endsMu sync.Mutex
	ends   []func()
)

// Exit removes every home Isolate made in this process and exits with
// code: a program that isolates itself (the benches) and then leaves by
// os.Exit would skip its deferred clean-up and leave the home in the
// temp directory.
func Exit(code int) {
	endsMu.Lock()
	fs := append([]func(){}, ends...)
	endsMu.Unlock()
	for _, end := range fs {
		end()
	}
	os.Exit(code)
}

// foreign reports whether the variable belongs to the developer's setup
// rather than to the test run.
func foreign(name string) bool {
	switch {
	case strings.HasPrefix(name, "WARDEN_TEST_"), name == "WARDEN_E2E_CACHE":
		return false
	case strings.HasPrefix(name, "WARDEN_"), strings.HasPrefix(name, "CLAUDE_"), name == "CLAUDECODE",
		strings.HasPrefix(name, "ANTHROPIC_"), strings.HasPrefix(name, "OPENAI_"), name == "CODEX_HOME",
		strings.HasPrefix(name, "GEMINI_"), name == "GOOGLE_API_KEY", strings.HasPrefix(name, "COPILOT_"),
		name == "GH_TOKEN", name == "GITHUB_TOKEN",
		name == "TMUX", name == "TMUX_PANE", name == "TMUX_TMPDIR",
		name == "GIT_DIR", name == "GIT_WORK_TREE", name == "GIT_INDEX_FILE", name == "GIT_CONFIG_GLOBAL",
		name == "GIT_CONFIG_SYSTEM", name == "GIT_AUTHOR_NAME", name == "GIT_AUTHOR_EMAIL",
		name == "GIT_COMMITTER_NAME", name == "GIT_COMMITTER_EMAIL",
		strings.HasPrefix(name, "XDG_"):
		return true
	}
	return false
}

// pinnedOutside is what stays pointed at the real home: the Go toolchain's
// caches and settings (so a test that runs `go build` reuses them) and the
// npm caches the pinned CLIs install from.
func pinnedOutside() map[string]string {
	keep := map[string]string{}
	if inherited(goPinned) {
		// A test process started by another one (a test binary run as a
		// child) has them already, set by its parent's Isolate: asking
		// `go` again would run it with HOME in the parent's test home,
		// which may be gone by then — the go command then re-creates its
		// counters there, a stray folder in the temp directory.
		for _, k := range goPinned {
			keep[k] = os.Getenv(k)
		}
	} else if out, err := exec.Command("go", append([]string{"env", "-json"}, goPinned...)...).Output(); err == nil {
		var env map[string]string
		if json.Unmarshal(out, &env) == nil {
			for k, v := range env {
				if v != "" && v != "off" {
					keep[k] = v
				}
			}
		}
	}
	if dir, err := CacheRoot(); err == nil {
		keep["WARDEN_E2E_CACHE"] = dir
	}
	if os.Getenv("npm_config_cache") == "" {
		if h, err := os.UserHomeDir(); err == nil && h != "" {
			keep["npm_config_cache"] = filepath.Join(h, ".npm")
		}
	}
	return keep
}

// goPinned are the go command's settings a test home keeps pointed at the
// real home.
var goPinned = []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOENV"}

// inherited reports whether every one of names is set in the environment.
func inherited(names []string) bool {
	for _, k := range names {
		if os.Getenv(k) == "" {
			return false
		}
	}
	return true
}

// shadowPath is PATH without the Shadowed programs: each directory that
// holds one is replaced by a new directory under into with a link to each
// of its other entries; relative and empty entries are dropped (a test's
// working directory is not a place to find programs).
func shadowPath(path, into string) (string, error) {
	var out []string
	for i, dir := range filepath.SplitList(path) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue // gone, or unreadable: nothing to find there anyway
		}
		if !holdsShadowed(entries) {
			out = append(out, dir)
			continue
		}
		copyDir := filepath.Join(into, fmt.Sprint(i))
		if err := os.MkdirAll(copyDir, 0o755); err != nil {
			return "", err
		}
		for _, e := range entries {
			if IsShadowed(e.Name()) {
				continue
			}
			if err := os.Symlink(filepath.Join(dir, e.Name()), filepath.Join(copyDir, e.Name())); err != nil {
				return "", err
			}
		}
		out = append(out, copyDir)
	}
	return strings.Join(out, string(filepath.ListSeparator)), nil
}

func holdsShadowed(entries []os.DirEntry) bool {
	for _, e := range entries {
		if IsShadowed(e.Name()) {
			return true
		}
	}
	return false
}

// IsShadowed reports whether a program of this name is never taken from
// the developer's PATH (Shadowed).
func IsShadowed(name string) bool {
	for _, s := range Shadowed {
		if name == s || strings.HasSuffix(s, "-") && strings.HasPrefix(name, s) {
			return true
		}
	}
	return false
}

// ShortDir is a new directory for a warden home whose sockets a test
// uses (run/hook.sock): a unix socket's path holds at most 107 bytes, and
// t.TempDir under a deep TMPDIR with a long test name leaves too few —
// warden then rightly runs hooks without its keeper, and the test would
// measure that instead. It is under the temporary directory when that is
// short, else under /tmp; removed when the test ends.
func ShortDir(t testing.TB) string {
	t.Helper()
	base := os.TempDir()
	if len(base) > 24 {
		base = "/tmp"
	}
	dir, err := os.MkdirTemp(base, "wt")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
