package agent

import "time"

// Reconfigure applies a reloaded config (warden serve on SIGHUP or a saved
// config.toml) to the agents started from now on and to the idle timeout
// of those running: mode, Claude Code's path and permission mode, the
// command template, the memory limit. Paths, the tmux server and the
// environment stay as they were: running agents live there. Spawn and
// Poll read these fields under m.mu, which Reconfigure takes too.
func (m *Manager) Reconfigure(c Config) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cfgMu.Lock()
	defer m.cfgMu.Unlock()
	m.cfg.Mode, m.cfg.Claude, m.cfg.PermissionMode = c.Mode, c.Claude, c.PermissionMode
	m.cfg.Command, m.cfg.MemoryMax, m.cfg.CLIs = c.Command, c.MemoryMax, c.CLIs
	if m.cfg.Mode == "" {
		m.cfg.Mode = ModeInteractive
	}
	m.cfg.IdleTimeout = c.IdleTimeout
	if m.cfg.IdleTimeout <= 0 {
		m.cfg.IdleTimeout = 30 * time.Minute
	}
}
