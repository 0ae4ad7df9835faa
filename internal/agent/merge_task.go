package agent

import (
	"context"
	"fmt"
	"strings"
)

// TaskMerge is what `warden task merge` did for a task: a local merge or
// a pull request.
type TaskMerge struct {
	Task  string       `json:"task"`
	Merge *MergeResult `json:"merge,omitempty"`
	PR    *PRResult    `json:"pr,omitempty"`
}

// MergeTask merges the branch of task's finished agent into its base, or
// with pr opens a pull request for it; prompt is the task's, for the
// commit message or the request's title and body.
func (m *Manager) MergeTask(ctx context.Context, task, prompt string, pr, dry bool) (*TaskMerge, error) {
	a, err := m.st.Agent(ctx, task)
	if err != nil {
		return nil, err
	}
	switch {
	case a == nil:
		return nil, refuse("task %s never had an agent here (it ran headless, or on another machine), so there is no branch to merge", task)
	case !State(a.State).Final():
		return nil, refuse("task %s's agent is still %s: wait until it is done (or cancel it) before merging its branch", task, a.State)
	}
	title := fmt.Sprintf("warden task %s: %s", task, clipText(firstLine(prompt), 72))
	out := &TaskMerge{Task: task}
	if pr {
		log, _ := git(ctx, a.Project, "log", "--reverse", "--format=- %h %s", a.BaseCommit+".."+a.Branch)
		body := strings.TrimSpace(prompt) + "\n\nCommits:\n" + log + "\n\nOpened by `warden task merge --pr` for task " + task + "."
		out.PR, err = OpenPR(ctx, PROptions{Project: a.Project, Branch: a.Branch, Base: a.Base, Title: title, Body: body, DryRun: dry})
	} else {
		msg := title + "\n\nMerged by `warden task merge`: branch " + a.Branch + " of task " + task + "."
		out.Merge, err = MergeBranch(ctx, MergeOptions{Project: a.Project, Branch: a.Branch, Base: a.Base, Message: msg, DryRun: dry})
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
