package daemon

import (
	"context"
	"errors"
	"fmt"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/server"
	"github.com/warden-dev/warden/internal/task"
)

// agentControl answers /api/agents and /internal/spawn-agent|kill-agent|
// agent-status for the tmux agents.
type agentControl struct {
	m     *agent.Manager
	tasks task.Store
	parts *Parts // the scheduler is built after the runners
}

func info(s *agent.Status) server.AgentInfo {
	return server.AgentInfo{TaskID: s.TaskID, Kind: kindOf(s.Mode), State: s.State,
		Ref: "tmux:" + agent.SessionName + ":" + s.Window, Project: s.Project, Since: s.Started}
}

// Spawn asks the scheduler to start the task's agent: slots and the quota
// hold still decide when (an agent started behind the scheduler's back
// would take a slot it does not count).
func (c *agentControl) Spawn(ctx context.Context, req server.SpawnRequest) (server.AgentInfo, error) {
	t, err := c.tasks.Task(ctx, req.TaskID)
	if err != nil {
		return server.AgentInfo{}, err
	}
	if req.Agent != "" && req.Agent != agent.TmuxRunnerName && !agent.IsCLIMode(req.Agent) {
		return server.AgentInfo{}, fmt.Errorf("%w: agent kind %q is not run by this control (tmux, codex, gemini, copilot)", task.ErrConflict, req.Agent)
	}
	if s, err := c.m.Status(ctx, t.ID); err != nil {
		return server.AgentInfo{}, err
	} else if s != nil {
		return info(s), nil
	}
	if t.Status != task.Queued {
		return server.AgentInfo{}, fmt.Errorf("%w: task %s is %s", task.ErrConflict, t.ID, t.Status)
	}
	if c.parts.Scheduler != nil {
		c.parts.Scheduler.Notify()
	}
	kind := t.Agent
	if kind == "" {
		kind = agent.TmuxRunnerName
	}
	return server.AgentInfo{TaskID: t.ID, Kind: kind, State: string(t.Status), Project: t.Project, Since: t.CreatedAt}, nil
}

// kindOf is the agent kind of a worktree agent run in mode: the CLI's
// name for the other CLIs, else tmux (Claude Code, or agent.command).
func kindOf(mode string) string {
	if agent.IsCLIMode(mode) {
		return mode
	}
	return agent.TmuxRunnerName
}

// Kill cancels the task through the scheduler (its run stops the agent,
// archives its work and frees the slot); an agent whose task is already
// over is cleaned up directly.
func (c *agentControl) Kill(ctx context.Context, id string) error {
	if c.parts.Scheduler != nil {
		_, err := c.parts.Scheduler.Cancel(ctx, id, "agent killed (/internal/kill-agent)")
		if err == nil || !errors.Is(err, task.ErrConflict) {
			return err
		}
	}
	s, err := c.m.Status(ctx, id)
	if err != nil {
		return err
	}
	if s == nil {
		return fmt.Errorf("%w: task %s has no agent", task.ErrNotFound, id)
	}
	_, err = c.m.Kill(ctx, id, "agent killed (/internal/kill-agent)")
	return err
}

func (c *agentControl) Status(ctx context.Context, id string) (server.AgentInfo, error) {
	s, err := c.m.Status(ctx, id)
	if err != nil {
		return server.AgentInfo{}, err
	}
	if s == nil {
		return server.AgentInfo{}, fmt.Errorf("%w: task %s has no agent", task.ErrNotFound, id)
	}
	return info(s), nil
}

func (c *agentControl) List(ctx context.Context) ([]server.AgentInfo, error) {
	as, err := c.parts.Store.Agents(ctx, false)
	if err != nil {
		return nil, err
	}
	out := make([]server.AgentInfo, 0, len(as))
	for _, a := range as {
		out = append(out, info(&agent.Status{Agent: a}))
	}
	return out, nil
}

// Health says whether agents can run: tmux answers.
func (c *agentControl) Health(ctx context.Context) error {
	_, err := c.m.Config().Tmux.Windows(ctx)
	return err
}

// Answer implements server.PendingAnswerer: approve or deny the call a
// waiting agent's policy asked about (agent.Manager.Answer).
func (c *agentControl) Answer(ctx context.Context, id string, approve, always bool, reason string) (string, error) {
	p, err := c.m.Answer(ctx, id, approve, always, reason)
	var ref *agent.Refusal
	if errors.As(err, &ref) {
		return "", &server.Refusal{Msg: ref.Msg}
	}
	if err != nil {
		return "", err
	}
	return p.String(), nil
}
