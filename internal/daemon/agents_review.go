package daemon

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/server"
	"github.com/warden-dev/warden/internal/task"
)

// The review loop of the tmux agents (server.TaskReviewer): a reply goes
// to a running agent's prompt, or queues a finished task again for a
// follow-up run on its branch; a merge merges the branch or opens a pull
// request, and is recorded on the task so the board shows it.

// asServerRefusal turns the agent package's refusals into the API's.
func asServerRefusal(err error) error {
	var ref *agent.Refusal
	var mref *agent.MergeRefusal
	switch {
	case errors.As(err, &ref):
		return &server.Refusal{Msg: ref.Msg}
	case errors.As(err, &mref):
		return &server.Refusal{Msg: mref.Msg}
	}
	return err
}

// Reply implements server.TaskReviewer.
func (c *agentControl) Reply(ctx context.Context, id, text string) (server.ReplyResult, error) {
	res := server.ReplyResult{Task: id}
	t, err := c.tasks.Task(ctx, id)
	if err != nil {
		return res, err
	}
	res.Status = t.Status
	switch t.Status {
	case task.Cancelled:
		return res, &server.Refusal{Msg: fmt.Sprintf("task %s was cancelled: its agent was stopped and its worktree removed, so a reply cannot reach it; its branch stays (warden task diff %s): queue a new task to carry on", id, id)}
	case task.Queued, task.Claimed:
		return res, &server.Refusal{Msg: fmt.Sprintf("task %s is %s: its agent has not started, and starts with the prompt it was queued with; reply once it runs, or cancel it and queue another", id, t.Status)}
	case task.Running, task.Paused:
		if err := c.m.Reply(ctx, id, text); err != nil {
			return res, asServerRefusal(err)
		}
		res.Delivered = "typed"
		c.record(ctx, id, task.ActReply, "a person replied to the running agent: "+clip(oneLine(text), 200))
		return res, nil
	}
	// Done or failed: a follow-up run on the branch.
	if err := c.m.RequestFollowUp(ctx, id, text); err != nil {
		return res, asServerRefusal(err)
	}
	why := "a person replied: follow-up run on its branch: " + clip(oneLine(text), 200)
	empty, state := "", "queued"
	nt, err := c.tasks.UpdateTask(ctx, id, task.Change{From: []task.Status{task.Done, task.Failed}, To: task.Queued, Requeue: true,
		Time: time.Now(), Reason: why, Result: &empty, Error: &empty, AgentState: &state, AgentNote: &why})
	if err != nil {
		c.m.DropFollowUp(id)
		if errors.Is(err, task.ErrConflict) {
			return res, &server.Refusal{Msg: fmt.Sprintf("task %s changed meanwhile (%v); look at it again: warden task show %s", id, err, id)}
		}
		return res, err
	}
	c.record(ctx, id, task.ActReply, why)
	if c.parts.Scheduler != nil {
		c.parts.Scheduler.Notify()
	}
	res.Delivered, res.Status = "follow-up", nt.Status
	return res, nil
}

// Merge implements server.TaskReviewer.
func (c *agentControl) Merge(ctx context.Context, id string, req server.MergeRequest) (server.MergeResult, error) {
	res := server.MergeResult{Task: id, Method: "merge", DryRun: req.DryRun}
	if req.PR {
		res.Method = "pr"
	}
	t, err := c.tasks.Task(ctx, id)
	if err != nil {
		return res, err
	}
	if !t.Status.Final() {
		return res, &server.Refusal{Msg: fmt.Sprintf("task %s is %s: merge it once it is done (or cancel it first)", id, t.Status)}
	}
	m, err := c.m.MergeTask(ctx, id, t.Prompt, req.PR, req.DryRun)
	if err != nil {
		return res, asServerRefusal(err)
	}
	s, _ := c.m.Status(ctx, id)
	if s != nil {
		res.Branch, res.Base = s.Branch, s.Base
	}
	var state, note string
	if m.PR != nil {
		res.Remote, res.Repo, res.URL = m.PR.Remote, m.PR.Repo, m.PR.URL
		state, note = "pr_open", "pull request "+m.PR.URL+" into "+res.Base
	} else {
		mr := m.Merge
		res.Commits, res.Files, res.Checkout, res.Commit = mr.Commits, mr.Files, mr.Checkout, mr.Commit
		state, note = "merged", fmt.Sprintf("merged into %s as %s (%d commit(s), %d file(s))", res.Base, short(mr.Commit), len(mr.Commits), len(mr.Files))
	}
	if req.DryRun {
		return res, nil
	}
	if _, err := c.tasks.UpdateTask(ctx, id, task.Change{AgentState: &state, AgentNote: &note, Time: time.Now()}); err != nil {
		return res, fmt.Errorf("%s, but recording it on the task failed: %w", note, err)
	}
	c.record(ctx, id, task.ActMerge, note)
	return res, nil
}

func (c *agentControl) record(ctx context.Context, id, action, reason string) {
	_ = c.tasks.RecordDecision(ctx, task.Decision{Time: time.Now(), TaskID: id, Action: action, Reason: reason})
}
