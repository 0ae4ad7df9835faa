package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/warden-dev/warden/internal/atomicfile"
	"github.com/warden-dev/warden/internal/store"
)

// logLines is how much of the pane is kept for `warden agent logs`.
const logLines = 5000

// finish cleans up after an agent in a final state: the pane's last
// screen goes to the log, the window is closed, uncommitted work is
// archived and the worktree removed (the branch stays), the trust entry
// and the launch script are taken out. A failed archive keeps the
// worktree and is returned, to be tried again.
func (m *Manager) finish(ctx context.Context, a *store.Agent) error {
	if w, _ := m.cfg.Tmux.Window(ctx, a.Window); w != nil {
		if out, err := m.cfg.Tmux.Capture(ctx, a.Window, logLines); err == nil {
			_ = os.MkdirAll(m.cfg.Logs, 0o755)
			_ = atomicfile.Write(m.logFile(a.TaskID), []byte(out), 0o600)
		}
		if err := closeWindow(ctx, m.cfg.Tmux, w); err != nil {
			return err
		}
	}
	delete(m.deadSeen, a.TaskID)
	// Processes the agent left behind go with its cgroup, before its
	// work is archived.
	if err := removeCgroup(ctx, a.MemoryCgroup); err != nil {
		return err
	}
	wt := &Worktree{Task: a.TaskID, Project: a.Project, Dir: a.Worktree, Branch: a.Branch, Base: a.Base, BaseCommit: a.BaseCommit}
	res, err := RemoveWorktree(ctx, wt, m.cfg.Archives)
	if err != nil {
		return err
	}
	if a.Mode == ModeInteractive {
		if err := Untrust(m.cfg.TrustFile, a.Worktree); err != nil {
			return fmt.Errorf("worktree removed, but its trust entry stays: %w", err)
		}
	}
	m.removeRunFiles(a.TaskID)
	a.Archive, a.Cleaned = res.Archive, time.Now()
	return m.st.UpdateAgent(ctx, a, nil)
}

func (m *Manager) logFile(task string) string { return filepath.Join(m.cfg.Logs, task+".log") }

// Kill ends a task's agent now: Error with the reason, then the same
// cleanup as any end (archive kept, slot freed).
func (m *Manager) Kill(ctx context.Context, task, reason string) (*Change, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a, err := m.st.Agent(ctx, task)
	if err != nil {
		return nil, err
	}
	if a == nil {
		return nil, fmt.Errorf("task %s has no agent", task)
	}
	var c *Change
	if !State(a.State).Final() {
		if reason == "" {
			reason = "killed"
		}
		c = &Change{Task: task, From: State(a.State), To: Error, Reason: reason}
		a.State, a.Reason, a.Ended = string(Error), reason, time.Now()
		if err := m.st.UpdateAgent(ctx, a, &store.AgentState{State: a.State, At: a.Ended, Reason: reason}); err != nil {
			return nil, err
		}
	}
	if a.Cleaned.IsZero() {
		return c, m.finish(ctx, a)
	}
	return c, nil
}

// Logs returns the agent's pane: live while its window is open, else the
// capture kept when it ended.
func (m *Manager) Logs(ctx context.Context, task string, lines int) (string, error) {
	if ok, _ := m.cfg.Tmux.HasWindow(ctx, task); ok {
		return m.cfg.Tmux.Capture(ctx, task, lines)
	}
	b, err := os.ReadFile(m.logFile(task))
	if os.IsNotExist(err) {
		return "", fmt.Errorf("task %s: no window and no saved log (%s)", task, m.logFile(task))
	}
	return string(b), err
}
