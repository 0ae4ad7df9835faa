package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/atomicfile"
)

// TaskFile is .warden/task.json inside a task's worktree: what the agent
// (and warden's hooks running for it) know about the task.
type TaskFile struct {
	ID       string   `json:"id"`
	Prompt   string   `json:"prompt"`
	Criteria []string `json:"criteria,omitempty"`
	// Allow lists the guarded git operations this task may run anyway
	// (push, fetch, pull, checkout, rebase, merge, worktree-remove).
	Allow []string `json:"allow,omitempty"`
	// Deny lists operations this task may not run (network, commit, write).
	Deny       []string  `json:"deny,omitempty"`
	Project    string    `json:"project"`
	Branch     string    `json:"branch"`
	Base       string    `json:"base"`
	BaseCommit string    `json:"base_commit"`
	Created    time.Time `json:"created"`
}

// TaskFilePath is where a worktree keeps its TaskFile.
func TaskFilePath(worktree string) string { return filepath.Join(worktree, ".warden", "task.json") }

// ReadTaskFile reads a worktree's task.json.
func ReadTaskFile(worktree string) (*TaskFile, error) {
	b, err := os.ReadFile(TaskFilePath(worktree))
	if err != nil {
		return nil, err
	}
	var tf TaskFile
	if err := json.Unmarshal(b, &tf); err != nil {
		return nil, fmt.Errorf("%s: %w", TaskFilePath(worktree), err)
	}
	return &tf, nil
}

// Worktree is a task's git worktree.
type Worktree struct {
	Task       string `json:"task"`
	Project    string `json:"project"` // the project's top-level directory
	Dir        string `json:"dir"`
	Branch     string `json:"branch"`
	Base       string `json:"base"`
	BaseCommit string `json:"base_commit"`
	// Note says what went differently from the plan without failing it
	// (a fetch that did not answer: the local base was used).
	Note string `json:"note,omitempty"`
}

// CreateOptions says which worktree to make.
type CreateOptions struct {
	Project string // any directory inside the project's repository
	Base    string // the branch to start from; "" = the project's current branch
	Root    string // where worktrees live (paths.Worktrees())
	Task    TaskFile
}

// ErrNotGit, ErrDirtyBase and ErrBranchExists are the refusals a task
// fails with before anything is created.
var (
	ErrNotGit       = errors.New("not a git repository")
	ErrDirtyBase    = errors.New("base branch has uncommitted changes")
	ErrBranchExists = errors.New("branch exists")
)

// CreateWorktree makes <root>/<project>/<task> on a new branch
// warden/<task> from the base branch (fetched first when it has a remote)
// and writes .warden/task.json into it. It is all or nothing: any failure
// removes what was made, and the error says what to fix.
func CreateWorktree(ctx context.Context, o CreateOptions) (*Worktree, error) {
	if err := CheckTaskID(o.Task.ID); err != nil {
		return nil, err
	}
	top, err := git(ctx, o.Project, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("project %s: %w (warden runs agents in git worktrees; run git init there first)", o.Project, ErrNotGit)
	}
	wt := &Worktree{Task: o.Task.ID, Project: top, Branch: Branch(o.Task.ID), Base: o.Base}
	wt.Dir = filepath.Join(o.Root, filepath.Base(top), o.Task.ID)
	head, _ := git(ctx, top, "symbolic-ref", "--quiet", "--short", "HEAD")
	if wt.Base == "" {
		if head == "" {
			return nil, fmt.Errorf("project %s: HEAD is detached; name the base branch of the task", top)
		}
		wt.Base = head
	}
	if !gitOK(ctx, top, "rev-parse", "--verify", "--quiet", "refs/heads/"+wt.Base) {
		return nil, fmt.Errorf("project %s: base branch %q does not exist", top, wt.Base)
	}
	if head == wt.Base {
		dirty, err := git(ctx, top, "status", "--porcelain", "--untracked-files=no")
		if err != nil {
			return nil, err
		}
		if dirty != "" {
			return nil, fmt.Errorf("project %s: %w (%s): commit or stash them first, the task starts from the last commit of %s",
				top, ErrDirtyBase, firstLines(dirty, 3), wt.Base)
		}
	}
	if gitOK(ctx, top, "rev-parse", "--verify", "--quiet", "refs/heads/"+wt.Branch) {
		return nil, fmt.Errorf("project %s: %w: %s (merge or delete it: git branch -D %s)", top, ErrBranchExists, wt.Branch, wt.Branch)
	}
	if _, err := os.Lstat(wt.Dir); err == nil {
		return nil, fmt.Errorf("worktree directory %s already exists (left by an earlier task?); remove it or use another task id", wt.Dir)
	}
	start, note := startPoint(ctx, top, wt.Base)
	wt.BaseCommit, wt.Note = start, note

	if err := os.MkdirAll(filepath.Dir(wt.Dir), 0o755); err != nil {
		return nil, err
	}
	if _, err := git(ctx, top, "worktree", "add", "--quiet", "-b", wt.Branch, wt.Dir, start); err != nil {
		undoCreate(top, wt)
		return nil, err
	}
	tf := o.Task
	tf.Project, tf.Branch, tf.Base, tf.BaseCommit = top, wt.Branch, wt.Base, wt.BaseCommit
	if tf.Created.IsZero() {
		tf.Created = time.Now().UTC()
	}
	if err := writeTaskFile(ctx, wt.Dir, &tf); err != nil {
		undoCreate(top, wt)
		return nil, err
	}
	return wt, nil
}

// startPoint is the commit a task starts from: the base branch, or its
// remote-tracking branch after a fetch when that is strictly newer (local
// commits not pushed yet are never dropped). A remote that does not answer
// is noted, not fatal: the task works on what is here.
func startPoint(ctx context.Context, top, base string) (sha, note string) {
	local, _ := git(ctx, top, "rev-parse", "--verify", "refs/heads/"+base)
	remote := ""
	if up, err := git(ctx, top, "rev-parse", "--abbrev-ref", base+"@{upstream}"); err == nil {
		remote, _, _ = strings.Cut(up, "/")
	} else if remotes, _ := git(ctx, top, "remote"); remotes != "" {
		remote = strings.Fields(remotes)[0]
		if strings.Contains("\n"+remotes+"\n", "\norigin\n") {
			remote = "origin"
		}
	}
	if remote == "" {
		return local, ""
	}
	if _, err := gitTimed(ctx, fetchTimeout, top, "fetch", "--quiet", remote, base); err != nil {
		return local, fmt.Sprintf("fetch of %s from %s failed, started from the local branch: %v", base, remote, err)
	}
	rsha, err := git(ctx, top, "rev-parse", "--verify", "refs/remotes/"+remote+"/"+base)
	if err != nil || rsha == local {
		return local, ""
	}
	if gitOK(ctx, top, "merge-base", "--is-ancestor", local, rsha) {
		return rsha, ""
	}
	return local, ""
}

// writeTaskFile writes .warden/task.json and makes sure git ignores the
// .warden directory in the worktree, so warden's own files are neither
// committed by the agent nor archived as its work.
func writeTaskFile(ctx context.Context, dir string, tf *TaskFile) error {
	if !gitOK(ctx, dir, "check-ignore", "-q", "--no-index", ".warden/task.json") {
		common, err := git(ctx, dir, "rev-parse", "--path-format=absolute", "--git-common-dir")
		if err != nil {
			return err
		}
		excl := filepath.Join(common, "info", "exclude")
		if err := os.MkdirAll(filepath.Dir(excl), 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(excl, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("ignore .warden/ in %s: %w", excl, err)
		}
		_, werr := f.WriteString("\n# warden: agent worktrees keep their task in .warden/\n/.warden/\n")
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return werr
		}
	}
	b, err := json.MarshalIndent(tf, "", "  ")
	if err != nil {
		return err
	}
	p := TaskFilePath(dir)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(p, append(b, '\n'), 0o644)
}

// undoCreate removes a half-made worktree and its branch. It runs on a
// fresh context: the caller's may be what failed.
func undoCreate(top string, wt *Worktree) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	_, _ = git(ctx, top, "worktree", "remove", "--force", wt.Dir)
	_ = os.RemoveAll(wt.Dir)
	_, _ = git(ctx, top, "worktree", "prune")
	_, _ = git(ctx, top, "branch", "-D", wt.Branch)
	_ = os.Remove(filepath.Dir(wt.Dir)) // the project's directory, when empty
}

// firstLines keeps the first n lines of s, noting how many more there are.
func firstLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	if len(lines) <= n {
		return strings.Join(lines, "; ")
	}
	return fmt.Sprintf("%s; and %d more", strings.Join(lines[:n], "; "), len(lines)-n)
}
