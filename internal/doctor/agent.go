package doctor

import (
	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/paths"
)

// agentMemory says plainly how agents get agent.memory_max here — a
// systemd scope, a cgroup warden makes, or not at all — and warns when a
// limit is set that cannot be applied.
func (d *doctor) agentMemory() {
	ok, why := agent.MemoryLimit()
	cfg, _ := config.Load(paths.UserConfig(), "")
	switch {
	case cfg == nil || cfg.Agent.MemoryMax == "":
		d.info("agent memory", "agent.memory_max is not set; "+why)
	case ok:
		d.ok("agent memory", "agent.memory_max "+cfg.Agent.MemoryMax+": "+why)
	default:
		d.warn("agent memory", "agent.memory_max "+cfg.Agent.MemoryMax+" is set but "+why,
			"start a systemd user instance (loginctl enable-linger $USER), or run warden serve where the memory cgroup controller is delegated to this user")
	}
}
