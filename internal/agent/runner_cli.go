package agent

import (
	"context"

	"github.com/warden-dev/warden/internal/task"
)

// CLIRunner runs the tasks of one other CLI (agent kind codex, gemini or
// copilot) as the tmux runner runs Claude Code's: the task's own
// worktree and tmux window, its state from the hook events warden's hooks
// for that CLI record with the task's id, done or failed by the task's
// criteria. It shares the tmux runner's poll loop and agents.
type CLIRunner struct {
	r    *TmuxRunner
	mode string
}

// ForCLI is the runner of mode's tasks (ModeCodex, ModeGemini,
// ModeCopilot) over r.
func (r *TmuxRunner) ForCLI(mode string) *CLIRunner { return &CLIRunner{r: r, mode: mode} }

// Name implements Runner: the agent kind is the CLI's name.
func (c *CLIRunner) Name() string { return c.mode }

// Start implements Runner.
func (c *CLIRunner) Start(ctx context.Context, t *task.Task) (Run, error) {
	return c.r.start(ctx, t, c.mode)
}

// Reattach implements Runner: as the tmux runner's (the window outlives
// the daemon).
func (c *CLIRunner) Reattach(ctx context.Context, t *task.Task) (Run, error) {
	return c.r.Reattach(ctx, t)
}
