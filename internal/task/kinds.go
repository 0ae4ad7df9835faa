package task

import (
	"fmt"
	"slices"
	"strings"
)

// The agent kinds a task can name (Task.Agent): the runners warden
// serve has. "" is the daemon's default (agent.runner).
const (
	// KindTmux: Claude Code in the task's own worktree and tmux window,
	// its state from its hooks.
	KindTmux = "tmux"
	// KindClaudeP: `claude -p` in the project directory.
	KindClaudeP = "claude-p"
	// KindCodex, KindGemini, KindCopilot: that CLI, headless, in the
	// task's own worktree and tmux window, its state from warden's hooks
	// for it — as KindTmux for Claude Code.
	KindCodex   = "codex"
	KindGemini  = "gemini"
	KindCopilot = "copilot"
)

// AgentKinds lists every kind, for help texts and errors.
var AgentKinds = []string{KindTmux, KindClaudeP, KindCodex, KindGemini, KindCopilot}

// CheckAgent says what is wrong with an agent kind ("" is the default).
func CheckAgent(kind string) error {
	if kind == "" || slices.Contains(AgentKinds, kind) {
		return nil
	}
	return fmt.Errorf("agent %q is not a kind warden runs; use one of %s (or leave it out for the daemon's default)", kind, strings.Join(AgentKinds, ", "))
}
