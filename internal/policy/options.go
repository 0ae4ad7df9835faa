package policy

import "github.com/warden-dev/warden/internal/config"

// OptionsFrom takes the engine's options from the effective config.
func OptionsFrom(c *config.Config, wardenHome string) Options {
	if c == nil {
		c = config.Defaults()
	}
	p := c.Policy
	return Options{Disabled: p.Disabled, Modes: p.Modes, Raise: p.Raise, Zones: p.Zones, ZonesRaise: p.ZonesRaise, ProtectedBranches: p.ProtectedBranches,
		MaxLinesWarn: p.MaxLinesWarn, MaxLinesDeny: p.MaxLinesDeny, WardenHome: wardenHome}
}
