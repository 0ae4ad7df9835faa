package daemon

import (
	"context"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/harness"
	"github.com/warden-dev/warden/internal/install"
)

// addAgents adds the tmux/worktree agents (internal/agent): the "tmux"
// runner and the agent control of the API. The agents get the
// environment the daemon captured at start-up; a reloaded agent.* applies
// to the next agent started (and the idle timeout at once); an agent
// that starts waiting for a person sends the configured notices.
func addAgents(p *Parts) {
	o := p.Options
	cfg := agent.ConfigFrom(o.cfg())
	cfg.Env = o.Env
	cfg.EnsureHooks = ensureHooks
	m := agent.NewManager(cfg, p.Store)
	var waiting func(ctx context.Context, id, reason string)
	if o.notifier != nil {
		tasks, n := p.Shared, o.notifier
		waiting = func(ctx context.Context, id, reason string) { n.Notify(o.noticeFor(ctx, tasks, m, id, reason)) }
	}
	r := agent.NewTmuxRunner(m, p.Shared, o.cfg().Agent.Criteria, p.Log, waiting)
	p.Runners[agent.TmuxRunnerName] = r
	// Codex, Gemini and Copilot tasks: the same worktrees, windows and
	// criteria, that CLI in the window.
	for _, mode := range agent.CLIModes {
		p.Runners[mode] = r.ForCLI(mode)
	}
	p.Agents = &agentControl{m: m, tasks: p.Shared, parts: p}
	p.Default = o.cfg().Agent.Runner
	o.onReload("agents", func(c *config.Config) {
		m.Reconfigure(agent.ConfigFrom(c))
		r.SetCriteria(c.Agent.Criteria)
	})
}

// ensureHooks installs warden's hooks for the CLI an agent is about to
// run, when they are missing (as `warden install --harness NAME` does):
// without them the CLI would run the task unwatched.
func ensureHooks(mode string) (string, error) {
	h, err := harness.Parse(mode)
	if err != nil {
		return "", err
	}
	return install.EnsureHarness(h)
}
