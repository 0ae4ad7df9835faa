// Package paths is the one place that knows where warden and Claude Code keep
// their files, so every command and test agrees (and tests can move them all
// with HOME, WARDEN_HOME and CLAUDE_CONFIG_DIR).
package paths

import (
	"os"
	"path/filepath"
	"strings"
)

// Home is warden's own directory: $WARDEN_HOME, else ~/.warden.
func Home() string {
	if h := os.Getenv("WARDEN_HOME"); h != "" {
		return h
	}
	return filepath.Join(userHome(), ".warden")
}

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
func DB() string { return filepath.Join(Home(), "warden.db") }

// KeeperLock is held by the process keeping the store open (see
// internal/store/keeper).
func KeeperLock() string { return filepath.Join(Home(), "locks", "keeper.lock") }

// UserConfig is the user's config file.
func UserConfig() string { return filepath.Join(Home(), "config.toml") }

// Bin is where `warden install` copies the binary so settings.json can name
// a path that does not move when the source tree does.
func Bin() string { return filepath.Join(Home(), "bin", "warden") }

// ProjectDir is the directory of the project a hook runs for: the
// CLAUDE_PROJECT_DIR Claude Code sets, else the payload's cwd.
func ProjectDir(cwd string) string {
	if d := os.Getenv("CLAUDE_PROJECT_DIR"); d != "" {
		return d
	}
	return cwd
}

// ProjectConfig is <project>/.warden/config.toml.
func ProjectConfig(projectDir string) string {
	return filepath.Join(projectDir, ".warden", "config.toml")
}

// ClaudeDir is Claude Code's config root: the first entry of
// CLAUDE_CONFIG_DIR (which may be a comma-separated list), else ~/.claude.
func ClaudeDir() string {
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		first, _, _ := strings.Cut(d, ",")
		if first = strings.TrimSpace(first); first != "" {
			return first
		}
	}
	return filepath.Join(userHome(), ".claude")
}

func userHome() string {
	if h, err := os.UserHomeDir(); err == nil && h != "" {
		return h
	}
	return "/"
}

// StateKey is the HMAC key that signs session state (0600, outside any
// project, created on first use).
func StateKey() string { return filepath.Join(Home(), "keys", "state.key") }

// DaemonLog is `warden serve`'s JSON log (rotated beside it).
func DaemonLog() string { return filepath.Join(Home(), "logs", "daemon.log") }

// ServeState is written by a running `warden serve`: its address and pid,
// for the CLI to find it.
func ServeState() string { return filepath.Join(Home(), "run", "serve.json") }

// CLIToken is the API token `warden serve` keeps for the local CLI (0600).
func CLIToken() string { return filepath.Join(Home(), "run", "cli.token") }

// TaskDir holds the output files of the daemon's tasks.
func TaskDir() string { return filepath.Join(Home(), "tasks") }
