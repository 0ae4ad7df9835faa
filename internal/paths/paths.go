// Package paths is the one place that knows where warden and Claude Code keep
// their files, so every command and test agrees (and tests can move them all
// with HOME, WARDEN_HOME and CLAUDE_CONFIG_DIR).
//
// The package-level functions read this process's environment. The
// resident hook server answers callers with other environments, so it
// resolves through Of(caller's getenv) instead: the same rules, the
// caller's variables.
package paths

import (
	"os"
	"path/filepath"
	"strings"
)

// Paths resolves every location from one environment.
type Paths struct{ getenv func(string) string }

// Of resolves locations from getenv (a caller's environment; nil means
// this process's).
func Of(getenv func(string) string) Paths {
	if getenv == nil {
		getenv = os.Getenv
	}
	return Paths{getenv: getenv}
}

func proc() Paths { return Paths{getenv: os.Getenv} }

// Home is warden's own directory: $WARDEN_HOME, else ~/.warden.
func (p Paths) Home() string {
	if h := p.getenv("WARDEN_HOME"); h != "" {
		return h
	}
	return filepath.Join(p.userHome(), ".warden")
}

// DB is the SQLite event store.
func (p Paths) DB() string { return filepath.Join(p.Home(), "warden.db") }

// UserConfig is the user's config file.
func (p Paths) UserConfig() string { return filepath.Join(p.Home(), "config.toml") }

// StateKey is the HMAC key that signs session state.
func (p Paths) StateKey() string { return filepath.Join(p.Home(), "keys", "state.key") }

// Locks is where session and keeper locks live.
func (p Paths) Locks() string { return filepath.Join(p.Home(), "locks") }

// ProjectDir is CLAUDE_PROJECT_DIR, else cwd.
func (p Paths) ProjectDir(cwd string) string {
	if d := p.getenv("CLAUDE_PROJECT_DIR"); d != "" {
		return d
	}
	return cwd
}

// ClaudeDir is Claude Code's config root: the first entry of
// CLAUDE_CONFIG_DIR (which may be a comma-separated list), else ~/.claude.
func (p Paths) ClaudeDir() string {
	if d := p.getenv("CLAUDE_CONFIG_DIR"); d != "" {
		first, _, _ := strings.Cut(d, ",")
		if first = strings.TrimSpace(first); first != "" {
			return first
		}
	}
	return filepath.Join(p.userHome(), ".claude")
}

// UserHome is $HOME as os.UserHomeDir reads it on unix ("/" without).
func (p Paths) UserHome() string { return p.userHome() }

func (p Paths) userHome() string {
	if h := p.getenv("HOME"); h != "" {
		return h
	}
	return "/"
}

// Home is warden's own directory: $WARDEN_HOME, else ~/.warden.
func Home() string { return proc().Home() }

// HomeFor is Home as seen by a process with the environment getenv: the
// keeper answers hooks of other processes and must resolve their warden
// home, not its own.
func HomeFor(getenv func(string) string) string {
	if h := getenv("WARDEN_HOME"); h != "" {
		return h
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".warden")
	}
	return Home()
}

// HookSocket is where the keeper answers hooks (internal/hookwire). A
// path longer than a unix socket address allows is not served: hooks then
// run in their own process.
func HookSocket() string { return HookSocketIn(Home()) }

// HookSocketIn is HookSocket for the warden home home.
func HookSocketIn(home string) string { return filepath.Join(home, "run", "hook.sock") }

// DB is the SQLite event store.
func DB() string { return proc().DB() }

// KeeperLock is held by the process keeping the store open (see
// internal/store/keeper).
func KeeperLock() string { return filepath.Join(Home(), "locks", "keeper.lock") }

// UserConfig is the user's config file.
func UserConfig() string { return proc().UserConfig() }

// Bin is where `warden install` copies the binary so settings.json can name
// a path that does not move when the source tree does.
func Bin() string { return filepath.Join(Home(), "bin", "warden") }

// ProjectDir is the directory of the project a hook runs for: the
// CLAUDE_PROJECT_DIR Claude Code sets, else the payload's cwd.
func ProjectDir(cwd string) string { return proc().ProjectDir(cwd) }

// ProjectConfig is <project>/.warden/config.toml.
func ProjectConfig(projectDir string) string {
	return filepath.Join(projectDir, ".warden", "config.toml")
}

// ClaudeDir is Claude Code's config root: the first entry of
// CLAUDE_CONFIG_DIR (which may be a comma-separated list), else ~/.claude.
func ClaudeDir() string { return proc().ClaudeDir() }

// StateKey is the HMAC key that signs session state (0600, outside any
// project, created on first use).
func StateKey() string { return proc().StateKey() }

// DaemonLog is `warden serve`'s JSON log (rotated beside it).
func DaemonLog() string { return filepath.Join(Home(), "logs", "daemon.log") }

// KeeperLog is where the on-demand keeper (detached, its stderr gone)
// notes why it left when that needs saying: its store file removed.
func KeeperLog() string { return filepath.Join(Home(), "logs", "keeper.log") }

// ServeState is written by a running `warden serve`: its address and pid,
// for the CLI to find it.
func ServeState() string { return filepath.Join(Home(), "run", "serve.json") }

// CLIToken is the API token `warden serve` keeps for the local CLI (0600).
func CLIToken() string { return filepath.Join(Home(), "run", "cli.token") }

// TaskDir holds the output files of the daemon's tasks.
func TaskDir() string { return filepath.Join(Home(), "tasks") }
