package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// FindProgram resolves an agent's program when the agent is launched, not
// when the daemon started: installing Claude Code after `warden serve`
// started takes effect on the next task. A name is looked up in the
// agent's own PATH (env), then where Claude Code's installers put it
// ($HOME/.local/bin by the native installer, $HOME/.claude/local by its
// older local install, ~/.npm-global/bin, /usr/local/bin and
// /opt/homebrew/bin), so a PATH line added to a shell's start-up file
// after the daemon started does not matter. It never reads the daemon's
// own PATH: the hook server swaps the process environment per hook.
func FindProgram(name string, env []string) (string, error) {
	if strings.Contains(name, "/") {
		if isExecutable(name) {
			return name, nil
		}
		return "", fmt.Errorf("%s is not an executable file", name)
	}
	dirs := filepath.SplitList(envValue(env, "PATH"))
	if home := envValue(env, "HOME"); home != "" {
		dirs = append(dirs, filepath.Join(home, ".local", "bin"), filepath.Join(home, ".claude", "local"), filepath.Join(home, ".npm-global", "bin"))
	}
	dirs = append(dirs, "/usr/local/bin", "/opt/homebrew/bin")
	for _, d := range dirs {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		if p := filepath.Join(d, name); isExecutable(p) {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s is not on the agent's PATH nor in $HOME/.local/bin, $HOME/.claude/local, /usr/local/bin", name)
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// envValue is KEY's value in env (the last one wins, as in exec).
func envValue(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// InstallClaudeHint says how to install Claude Code.
const InstallClaudeHint = "install Claude Code (curl -fsSL https://claude.ai/install.sh | bash, or npm install -g @anthropic-ai/claude-code) or set agent.claude to its path"
