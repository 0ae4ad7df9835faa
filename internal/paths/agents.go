package paths

import "path/filepath"

// Worktrees is where agents' git worktrees live:
// <Worktrees>/<project>/<task>, outside every project so a task's files
// never show up in the project's own checkout.
func Worktrees() string { return filepath.Join(Home(), "worktrees") }

// Archives holds <task>.tar.gz: the uncommitted changes of a task's
// worktree, saved before the worktree is removed.
func Archives() string { return filepath.Join(Home(), "archives") }

// AgentLogs holds <task>.log: the last capture of an agent's tmux pane,
// kept after its window is gone (`warden agent logs`).
func AgentLogs() string { return filepath.Join(Home(), "logs", "agents") }
