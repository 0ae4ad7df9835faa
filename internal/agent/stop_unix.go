//go:build unix

package agent

import (
	"context"
	"syscall"
	"time"
)

// stopGrace is how long an agent has to exit after its window is closed
// (Claude Code runs its SessionEnd hooks on the way out) before its
// process group is killed.
const stopGrace = 10 * time.Second

// closeWindow closes the task's window and waits until the agent process
// is gone, so nothing it does on the way out (its SessionEnd hook writes
// into the worktree) lands after the worktree is archived and removed. A
// process still there after stopGrace is killed with its process group
// (tmux makes each pane's process a session leader).
func closeWindow(ctx context.Context, tm *Tmux, w *Window) error {
	if err := tm.KillWindow(ctx, w.Name); err != nil {
		return err
	}
	if w.PanePID <= 1 || w.Dead {
		return nil
	}
	if waitGone(ctx, w.PanePID, stopGrace) {
		return nil
	}
	_ = syscall.Kill(-w.PanePID, syscall.SIGKILL)
	_ = syscall.Kill(w.PanePID, syscall.SIGKILL)
	waitGone(ctx, w.PanePID, 5*time.Second)
	return nil
}

// waitGone polls until pid no longer exists (tmux reaps its panes).
func waitGone(ctx context.Context, pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
			return true
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
}
