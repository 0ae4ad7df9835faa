package agent

import (
	"time"

	"github.com/warden-dev/warden/internal/config"
)

// ConfigFrom is the manager configuration the agent.* keys describe;
// paths and the environment keep their defaults.
func ConfigFrom(c *config.Config) Config {
	a := c.Agent
	return Config{
		Tmux: &Tmux{Socket: a.TmuxSocket}, Mode: a.Mode, Claude: a.Claude, PermissionMode: a.PermissionMode,
		Command: a.Command, MemoryMax: a.MemoryMax, IdleTimeout: time.Duration(a.IdleTimeout) * time.Second,
		CLIs: map[string]CLIConfig{
			ModeCodex:   {Command: a.Codex, Args: a.CodexArgs},
			ModeGemini:  {Command: a.Gemini, Args: a.GeminiArgs},
			ModeCopilot: {Command: a.Copilot, Args: a.CopilotArgs},
		},
	}
}
