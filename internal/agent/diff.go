package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/warden-dev/warden/internal/store"
)

// Diff is what a task's branch holds against the commit its worktree
// started from: the review of `warden task diff`.
type Diff struct {
	Task       string   `json:"task"`
	Branch     string   `json:"branch"`
	Base       string   `json:"base"`
	BaseCommit string   `json:"base_commit"`
	Stat       Stat     `json:"stat"`
	StatText   string   `json:"stat_text"` // git diff --stat
	Commits    []string `json:"commits"`   // one line each, oldest first
	Patch      string   `json:"patch,omitempty"`
}

// BranchDiff reads the diff of a's branch from its project's repository
// (the branch stays when the worktree is removed). withPatch adds the
// patch itself.
func BranchDiff(ctx context.Context, a *store.Agent, withPatch bool) (*Diff, error) {
	if a.BaseCommit == "" {
		return nil, fmt.Errorf("task %s's agent has no base commit recorded", a.TaskID)
	}
	d := &Diff{Task: a.TaskID, Branch: a.Branch, Base: a.Base, BaseCommit: a.BaseCommit}
	st, err := BranchStat(ctx, a.Project, a.BaseCommit, a.Branch)
	if err != nil {
		return nil, fmt.Errorf("task %s: branch %s in %s: %w", a.TaskID, a.Branch, a.Project, err)
	}
	d.Stat = st
	if d.StatText, err = git(ctx, a.Project, "diff", "--stat", a.BaseCommit, a.Branch); err != nil {
		return nil, err
	}
	log, err := git(ctx, a.Project, "log", "--reverse", "--format=%h %s (%an, %ad)", "--date=short", a.BaseCommit+".."+a.Branch)
	if err != nil {
		return nil, err
	}
	for _, l := range strings.Split(log, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			d.Commits = append(d.Commits, l)
		}
	}
	if withPatch {
		if d.Patch, err = git(ctx, a.Project, "diff", a.BaseCommit, a.Branch); err != nil {
			return nil, err
		}
	}
	return d, nil
}
