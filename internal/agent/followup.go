package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/atomicfile"
	"github.com/warden-dev/warden/internal/store"
)

// A reply to a finished task (done or failed) is a follow-up run: the
// task goes back into the queue, and when the scheduler starts it again
// its agent gets a new worktree on the task's own branch — the commits
// of the earlier runs are there — and a new session whose prompt is the
// reply with the task's context (the original prompt, the branch's
// commits, how the last run ended). The agent's record carries on: same
// row, its states appended, so `task show` tells the whole story.
//
// The reply waits for that start in <scripts>/<task>.followup.json,
// written by RequestFollowUp before the task is queued, so a daemon
// restart in between loses nothing.

// FollowUp is a reply waiting to start its run.
type FollowUp struct {
	Text string    `json:"text"`
	At   time.Time `json:"at"`
}

func (m *Manager) followUpFile(task string) string {
	return filepath.Join(m.cfg.Scripts, task+".followup.json")
}

// RequestFollowUp checks that task's finished agent can run again on its
// branch and records text as its next prompt; the caller then queues the
// task. Refusals say why not.
func (m *Manager) RequestFollowUp(ctx context.Context, task, text string) error {
	text, err := CleanReply(text, true)
	if err != nil {
		return refuse("%s", err.Error())
	}
	a, err := m.st.Agent(ctx, task)
	if err != nil {
		return err
	}
	switch {
	case a == nil:
		return refuse("task %s never had an agent here (it ran headless, or on another machine), so there is no branch to follow up on", task)
	case !State(a.State).Final():
		return refuse("task %s's agent is still %s: the reply goes to it directly", task, a.State)
	case a.Cleaned.IsZero():
		return refuse("task %s's agent ended a moment ago and is being cleaned up; reply again in a few seconds", task)
	}
	if !gitOK(ctx, a.Project, "rev-parse", "--verify", "--quiet", "refs/heads/"+a.Branch) {
		return refuse("task %s's branch %s is gone from %s (deleted after a merge?): nothing to follow up on; queue a new task", task, a.Branch, a.Project)
	}
	if _, err := os.Lstat(a.Worktree); err == nil {
		return refuse("task %s's worktree %s is still there (left by a failed cleanup): remove it (git worktree remove --force %s) and reply again", task, a.Worktree, a.Worktree)
	}
	b, _ := json.Marshal(FollowUp{Text: text, At: time.Now().UTC()})
	if err := os.MkdirAll(m.cfg.Scripts, 0o700); err != nil {
		return err
	}
	return atomicfile.Write(m.followUpFile(task), b, 0o600)
}

// PendingFollowUp is the reply waiting to start task's next run, nil when
// there is none.
func (m *Manager) PendingFollowUp(task string) *FollowUp {
	b, err := os.ReadFile(m.followUpFile(task))
	if err != nil {
		return nil
	}
	var f FollowUp
	if json.Unmarshal(b, &f) != nil || f.Text == "" {
		return nil
	}
	return &f
}

// DropFollowUp forgets a follow-up that will not run (the task could not
// be queued again).
func (m *Manager) DropFollowUp(task string) { _ = os.Remove(m.followUpFile(task)) }

// SpawnFollowUp starts the follow-up run of sp.Task's finished agent: a
// worktree on its branch again, the reply with its context as the
// prompt, the same window name. All or nothing, like Spawn.
func (m *Manager) SpawnFollowUp(ctx context.Context, sp Spec) (*store.Agent, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a, err := m.st.Agent(ctx, sp.Task)
	if err != nil {
		return nil, err
	}
	fu := m.PendingFollowUp(sp.Task)
	switch {
	case a == nil || fu == nil:
		return nil, fmt.Errorf("task %s has no follow-up waiting", sp.Task)
	case !State(a.State).Final() || a.Cleaned.IsZero():
		return nil, fmt.Errorf("task %s's agent is %s, not finished and cleaned up: no second run beside it", sp.Task, a.State)
	}
	if _, err := m.cfg.Tmux.bin(); err != nil {
		return nil, err
	}
	mode := a.Mode
	prompt := followUpPrompt(ctx, a, sp.Prompt, fu.Text)
	ls, memNote, err := m.launchSpec(sp.Task, prompt, mode, a.Worktree)
	if err != nil {
		return nil, err
	}

	wt := &Worktree{Task: a.TaskID, Project: a.Project, Dir: a.Worktree, Branch: a.Branch, Base: a.Base, BaseCommit: a.BaseCommit}
	undo := func() {
		_ = m.cfg.Tmux.KillWindow(context.Background(), sp.Task)
		if mode == ModeInteractive {
			_ = Untrust(m.cfg.TrustFile, wt.Dir)
		}
		m.removeRunFiles(sp.Task)
		_, _ = RemoveWorktree(context.Background(), wt, m.cfg.Archives) // the branch stays
		_ = removeCgroup(context.Background(), ls.MemoryCgroup)
	}
	if err := os.MkdirAll(filepath.Dir(wt.Dir), 0o755); err != nil {
		return nil, err
	}
	if _, err := git(ctx, a.Project, "worktree", "add", "--quiet", wt.Dir, a.Branch); err != nil {
		_ = removeCgroup(context.Background(), ls.MemoryCgroup)
		return nil, fmt.Errorf("follow-up of task %s: %w", sp.Task, err)
	}
	tf := TaskFile{ID: sp.Task, Prompt: prompt, Criteria: sp.Criteria, Allow: sp.Allow, Deny: sp.Deny,
		Project: a.Project, Branch: a.Branch, Base: a.Base, BaseCommit: a.BaseCommit, Created: time.Now().UTC()}
	if err := writeTaskFile(ctx, wt.Dir, &tf); err != nil {
		undo()
		return nil, err
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
	_ = os.Remove(m.exitFile(sp.Task)) // the last run's status is not this one's
	why := "follow-up run: " + clipText(oneLineText(fu.Text), 200)
	a.State, a.Reason = string(Spawning), joinNotes(why, memNote)
	a.Started, a.Ended, a.Cleaned = time.Now(), time.Time{}, time.Time{}
	a.Pending, a.Tail, a.Archive, a.MemoryCgroup = "", "", "", ls.MemoryCgroup
	a.Criteria = sp.Criteria
	// The earlier run's events are its own: this run reads from here on.
	if evs, err := m.st.Events(ctx, store.Filter{TaskID: sp.Task, AfterID: a.LastEventID}); err == nil && len(evs) > 0 {
		a.LastEventID = evs[len(evs)-1].ID
	}
	if mode != ModeCommand && !IsCLIMode(mode) {
		a.PermissionMode = m.cfg.PermissionMode
	}
	if err := m.st.UpdateAgent(ctx, a, &store.AgentState{State: a.State, At: a.Started, Reason: why}); err != nil {
		undo()
		return nil, err
	}
	if err := m.cfg.Tmux.NewWindow(ctx, WindowSpec{Name: sp.Task, Dir: wt.Dir, Argv: argv}); err != nil {
		undo()
		a.State, a.Reason, a.Ended, a.Cleaned = string(Error), "tmux: "+err.Error(), time.Now(), time.Now()
		_ = m.st.UpdateAgent(context.Background(), a, &store.AgentState{State: a.State, Reason: a.Reason})
		return nil, err
	}
	m.DropFollowUp(sp.Task)
	return a, nil
}

// followUpPrompt is the follow-up run's first message: the reply, with
// what the new session needs to know of the task.
func followUpPrompt(ctx context.Context, a *store.Agent, original, reply string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "This is a follow-up on warden task %s. An earlier run of an agent worked on this task:\n\n%s\n\n", a.TaskID, strings.TrimSpace(original))
	log, _ := git(ctx, a.Project, "log", "--reverse", "--format=- %h %s", a.BaseCommit+".."+a.Branch)
	if log != "" {
		fmt.Fprintf(&b, "Its work is committed on this branch, %s (the directory you are in), which started from %s:\n%s\n\n", a.Branch, a.Base, log)
	} else {
		fmt.Fprintf(&b, "It committed nothing on this branch, %s (the directory you are in), which started from %s.\n\n", a.Branch, a.Base)
	}
	fmt.Fprintf(&b, "That run ended %s: %s.\n\n", strings.ReplaceAll(a.State, "_", " "), oneLineText(a.Reason))
	if a.Archive != "" {
		fmt.Fprintf(&b, "Its uncommitted changes were not kept on the branch; they are archived in %s (its changes.patch applies with git apply).\n\n", a.Archive)
	}
	fmt.Fprintf(&b, "A person reviewed it and replies:\n\n%s\n\nCarry on from the branch as it is.", reply)
	return b.String()
}

func clipText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
