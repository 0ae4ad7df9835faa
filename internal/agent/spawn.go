package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// Spec is one task to run.
type Spec struct {
	Task     string
	Project  string // a directory in the project's git repository
	Base     string // base branch; "" = the project's current branch
	Prompt   string
	Criteria []string // see CheckCriteria
	Allow    []string // guarded git operations the task may run (see internal/policy's agent pack)
	Deny     []string // operations the task may not run (task.DenyOps)
	Mode     string   // overrides Config.Mode
}

// Spawn gives the task a worktree and starts its agent in a tmux window.
// Everything that can be checked first is (task id, tmux, the agent's
// program), and a failure after that undoes what was made: the caller
// gets an error to fail the task with and nothing is left behind.
func (m *Manager) Spawn(ctx context.Context, sp Spec) (*store.Agent, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := CheckTaskID(sp.Task); err != nil {
		return nil, err
	}
	if a, err := m.st.Agent(ctx, sp.Task); err != nil {
		return nil, err
	} else if a != nil {
		return nil, fmt.Errorf("task %s already has an agent (%s since %s)", sp.Task, a.State, a.Started.Format(time.RFC3339))
	}
	mode := sp.Mode
	if mode == "" {
		mode = m.cfg.Mode
	}
	if _, err := m.cfg.Tmux.bin(); err != nil {
		return nil, err
	}
	// Before the worktree, so a failure leaves nothing.
	ls, memNote, err := m.launchSpec(sp.Task, sp.Prompt, mode, "")
	if err != nil {
		return nil, err
	}

	wt, err := CreateWorktree(ctx, CreateOptions{Project: sp.Project, Base: sp.Base, Root: m.cfg.Worktrees,
		Task: TaskFile{ID: sp.Task, Prompt: sp.Prompt, Criteria: sp.Criteria, Allow: sp.Allow, Deny: sp.Deny}})
	if err != nil {
		_ = removeCgroup(context.Background(), ls.MemoryCgroup)
		return nil, err
	}
	ls.Dir = wt.Dir
	undo := func() {
		_ = m.cfg.Tmux.KillWindow(context.Background(), sp.Task)
		if mode == ModeInteractive {
			_ = Untrust(m.cfg.TrustFile, wt.Dir)
		}
		m.removeRunFiles(sp.Task)
		undoCreate(wt.Project, wt)
		_ = removeCgroup(context.Background(), ls.MemoryCgroup)
	}
	if mode == ModeInteractive {
		if err := Trust(m.cfg.TrustFile, wt.Dir); err != nil {
			undo()
			return nil, fmt.Errorf("pre-accept Claude Code's trust dialog for %s: %w", wt.Dir, err)
		}
	}
	argv, err := WriteLaunchScript(m.script(sp.Task), ls)
	if err != nil {
		undo()
		return nil, err
	}
	a := &store.Agent{TaskID: sp.Task, Project: wt.Project, Worktree: wt.Dir, Branch: wt.Branch, Base: wt.Base,
		BaseCommit: wt.BaseCommit, Mode: mode, Window: sp.Task, Criteria: sp.Criteria, State: string(Spawning),
		Reason: joinNotes(wt.Note, memNote), Started: time.Now(), MemoryCgroup: ls.MemoryCgroup}
	if mode != ModeCommand && !IsCLIMode(mode) {
		a.PermissionMode = m.cfg.PermissionMode
	}
	// Recorded before the window opens: the agent's first hook events
	// may come at once, and a row must be there to apply them to.
	if err := m.st.InsertAgent(ctx, a); err != nil {
		undo()
		return nil, err
	}
	if err := m.cfg.Tmux.NewWindow(ctx, WindowSpec{Name: sp.Task, Dir: wt.Dir, Argv: argv}); err != nil {
		undo()
		a.State, a.Reason, a.Ended, a.Cleaned = string(Error), "tmux: "+err.Error(), time.Now(), time.Now()
		_ = m.st.UpdateAgent(context.Background(), a, &store.AgentState{State: a.State, Reason: a.Reason})
		return nil, err
	}
	return a, nil
}

func (m *Manager) script(task string) string { return filepath.Join(m.cfg.Scripts, task+".sh") }

// removeRunFiles removes what a task's launch wrote beside its script:
// the script, the exit status, a CLI agent's prompt and policy files.
func (m *Manager) removeRunFiles(task string) {
	for _, p := range []string{m.script(task), m.exitFile(task), m.promptFile(task), m.policyFile(task)} {
		_ = os.Remove(p)
	}
}

// promptFile is a CLI agent's prompt (its stdin); policyFile Gemini
// CLI's tool policy (clis.go).
func (m *Manager) promptFile(task string) string { return filepath.Join(m.cfg.Scripts, task+".prompt") }
func (m *Manager) policyFile(task string) string {
	return filepath.Join(m.cfg.Scripts, task+".gemini-policy.toml")
}

// launchSpec is how task's agent is launched with prompt in mode (dir:
// its worktree, "" while not made yet): the agent program checked, its
// memory limit set up (memNote says how, when it says anything).
func (m *Manager) launchSpec(task, prompt, mode, dir string) (ls LaunchSpec, memNote string, err error) {
	ls = LaunchSpec{Task: task, Prompt: prompt, Mode: mode, Claude: m.cfg.Claude, Dir: dir,
		PermissionMode: m.cfg.PermissionMode, Command: m.cfg.Command, Env: m.cfg.Env, ExitFile: m.exitFile(task)}
	if ls.Env == nil {
		ls.Env = os.Environ()
	}
	var hookNote string
	if IsCLIMode(mode) {
		ls.CLI, ls.PromptFile, ls.PolicyFile = m.cfg.CLIs[mode], m.promptFile(task), m.policyFile(task)
	}
	if _, err := AgentArgv(ls); err != nil {
		return ls, "", err
	}
	if IsCLIMode(mode) && m.cfg.EnsureHooks != nil {
		// Before anything is made: a CLI whose hooks would not call
		// warden must not run a task unwatched.
		if hookNote, err = m.cfg.EnsureHooks(mode); err != nil {
			return ls, "", fmt.Errorf("warden's hooks for %s: %w", mode, err)
		}
	}
	memNote, err = m.limitMemory(&ls)
	return ls, joinNotes(hookNote, memNote), err
}

// exitFile is where a headless or command agent's launch script leaves its exit
// status.
func (m *Manager) exitFile(task string) string { return filepath.Join(m.cfg.Scripts, task+".exit") }

func joinNotes(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}
