package cli

import (
	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/paths"
)

// paceParamFlags are the values of `warden pace`'s parameter flags.
type paceParamFlags struct {
	preload, safety, threshold float64
	base, maxDelay             int
	weekly, fiveHour           bool
}

// configPaceParams are the pacing parameters the hooks use: the user's
// config.toml ([pacing], user-only keys), else the defaults. A config with
// problems still gives its valid keys, as it does to the hooks.
func configPaceParams() pace.Params {
	cfg, _ := config.Load(paths.UserConfig(), "")
	return pace.SettingsFrom(cfg).Params
}

// whatIfParams is a what-if's parameters: the config's, with each flag the
// user passed taking its place.
func whatIfParams(cmd *cobra.Command, p pace.Params, f paceParamFlags) pace.Params {
	changed := cmd.Flags().Changed
	if changed("preload-hours") {
		p.PreloadHours = f.preload
	}
	if changed("safety-buffer-pct") {
		p.SafetyBufferPct = f.safety
	}
	if changed("threshold-percent") {
		p.ThresholdPercent = f.threshold
	}
	if changed("base-delay") {
		p.BaseDelay = f.base
	}
	if changed("max-delay") {
		p.MaxDelay = f.maxDelay
	}
	if changed("weekly-limit") {
		p.WeeklyLimit = f.weekly
	}
	if changed("five-hour-limit") {
		p.FiveHourLimit = f.fiveHour
	}
	return p
}
