package install

import "github.com/warden-dev/warden/internal/agent"

// agentMemory says plainly whether agents can get a memory limit here
// (agent.memory_max): a systemd user scope, or none.
func (d *doctor) agentMemory() {
	_, why := agent.MemoryLimit()
	d.ok("agent memory", why)
}
