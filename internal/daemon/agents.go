package daemon

import (
	"time"

	"github.com/warden-dev/warden/internal/agent"
)

// addAgents adds the tmux/worktree agents (internal/agent): the "tmux"
// runner and the agent control of the API. The agents get the
// environment the daemon captured at start-up.
func addAgents(p *Parts) {
	cfg := agent.ConfigFrom(p.Options.Config)
	cfg.Env = p.Options.Env
	m := agent.NewManager(cfg, p.Store)
	p.Runners[TmuxRunnerName] = &tmuxRunner{m: m, tasks: p.Shared, criteria: p.Options.Config.Agent.Criteria,
		interval: time.Second, log: p.Log, runs: map[string]*tmuxRun{}}
	p.Agents = &agentControl{m: m, tasks: p.Shared, parts: p}
	p.Default = p.Options.Config.Agent.Runner
}
