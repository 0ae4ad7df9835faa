package pace

import (
	"fmt"
	"math"
	"time"
)

// Window lengths and fixed figures of the reference (pacing.md).
const (
	// FiveHourWindowHours is the length of the session window.
	FiveHourWindowHours = 5.0
	// SevenDayWindowHours is the length of the weekly window; windows at
	// least this long use the weekend-aware allowance.
	SevenDayWindowHours = 168.0
	// FiveHourPreloadHours is the hard-coded 0.5 h (10 %) preload of the
	// 5-hour window (calculate_pacing_decision, "Targets").
	FiveHourPreloadHours = 0.5
	// StaleGrace is how far in the past a reset time may lie before its
	// figures count as stale (calculate_time_percent, the -300 s rule).
	StaleGrace = 300 * time.Second
	// StaleTimePercent is the sentinel TimePercent returns for stale data.
	StaleTimePercent = -1.0
	// DelayHeadroom is what MaxDelay must leave below the PostToolUse hook
	// timeout (pacing.md, differences: "capped at the PostToolUse timeout
	// minus 10 s").
	DelayHeadroom = 10
)

// Params are the tunables of the algorithm. The zero value is not useful;
// start from DefaultParams.
type Params struct {
	// PreloadHours is the 7-day preload in weekday hours (preload_hours,
	// default 12 = 10 % of the 120 weekday hours).
	PreloadHours float64
	// SafetyBufferPct is the share of the allowance that counts as safe
	// (safety_buffer_pct, default 95).
	SafetyBufferPct float64
	// BaseDelay is the minimum delay in seconds (base_delay = min_delay,
	// default 5).
	BaseDelay int
	// MaxDelay is the maximum delay in seconds (max_delay, default 350).
	MaxDelay int
	// ThresholdPercent is how many points utilisation may exceed the safe
	// allowance before warden throttles (threshold_percent, default 0 =
	// zero tolerance; the reference ignores it, warden honours it).
	ThresholdPercent float64
	// WeeklyLimit lets the 7-day window take part (weekly_limit_enabled).
	WeeklyLimit bool
	// FiveHourLimit lets the 5-hour window take part
	// (five_hour_limit_enabled).
	FiveHourLimit bool
}

// DefaultParams are the reference's hook-path defaults (pacing.md,
// "Hook-level facts": preload 12, safety buffer 95, 5/350, both limits on).
func DefaultParams() Params {
	return Params{
		PreloadHours:     12,
		SafetyBufferPct:  95,
		BaseDelay:        5,
		MaxDelay:         350,
		ThresholdPercent: 0,
		WeeklyLimit:      true,
		FiveHourLimit:    true,
	}
}

// ParamError names the parameter (by its config key) that is out of range.
type ParamError struct {
	Key string // config key, e.g. "safety_buffer_pct"
	Msg string // what is wrong and what to do
}

func (e *ParamError) Error() string { return e.Key + " " + e.Msg }

// Validate reports the first parameter outside its range, or nil.
func (p Params) Validate() error {
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	switch {
	case !finite(p.PreloadHours) || p.PreloadHours < 0 || p.PreloadHours > 120:
		return &ParamError{"preload_hours", fmt.Sprintf("is %g; use 0 to 120 weekday hours (0 = no preload)", p.PreloadHours)}
	case !finite(p.SafetyBufferPct) || p.SafetyBufferPct <= 0 || p.SafetyBufferPct > 100:
		return &ParamError{"safety_buffer_pct", fmt.Sprintf("is %g; use a percentage above 0 and at most 100", p.SafetyBufferPct)}
	case p.BaseDelay < 0:
		return &ParamError{"base_delay", fmt.Sprintf("is %d; use 0 or more seconds", p.BaseDelay)}
	case p.MaxDelay <= p.BaseDelay:
		// With max_delay <= base_delay the bounds force every computed
		// delay to base_delay, which the strategy step turns into 0.
		return &ParamError{"max_delay", fmt.Sprintf("is %d; use more seconds than base_delay (%d)", p.MaxDelay, p.BaseDelay)}
	case !finite(p.ThresholdPercent) || p.ThresholdPercent < 0 || p.ThresholdPercent > 100:
		return &ParamError{"threshold_percent", fmt.Sprintf("is %g; use 0 to 100 points (0 = zero tolerance)", p.ThresholdPercent)}
	}
	return nil
}

// CapMaxDelay lowers MaxDelay to hookTimeout-DelayHeadroom seconds when it
// is above that, so a pacing sleep always ends before Claude Code's
// PostToolUse timeout. It reports whether it lowered it.
func CapMaxDelay(p Params, hookTimeout int) (Params, bool) {
	limit := hookTimeout - DelayHeadroom
	if p.MaxDelay > limit {
		p.MaxDelay = limit
		return p, true
	}
	return p, false
}
