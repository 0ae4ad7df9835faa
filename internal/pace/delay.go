package pace

import "time"

// Strategy is the reference's name for how hard a delay throttles.
type Strategy string

// The strategies of calculate_adaptive_delay (pacing.md step 12).
const (
	StrategyNone       Strategy = "none"
	StrategyMinimal    Strategy = "minimal"
	StrategyGradual    Strategy = "gradual"
	StrategyAggressive Strategy = "aggressive"
	StrategyEmergency  Strategy = "emergency"
)

// Reasons the reference attaches to its early returns (pacing.md steps 1
// and 3).
const (
	ReasonWeeklyLimitDisabled = "weekly limit disabled"
	ReasonWeekendEmergency    = "over safe budget on weekend - allowance frozen"
)

// Step names the rule of AdaptiveDelay that settled the delay.
type Step string

// The rules, in the order AdaptiveDelay tries them.
const (
	StepWeeklyDisabled   Step = "weekly-limit-disabled" // step 1
	StepWeekendEmergency Step = "weekend-emergency"     // step 3
	StepNoTimeLeft       Step = "no-time-left"          // step 6
	StepUnderBudget      Step = "under-budget"          // step 8
	StepAdaptive         Step = "adaptive"              // steps 9-12
)

// Projection is the reference's projection object (pacing.md, "Returned
// projection keys").
type Projection struct {
	Allowance           float64 `json:"allowance"`
	SafeAllowance       float64 `json:"safe_allowance"`
	BufferRemaining     float64 `json:"buffer_remaining"`
	CreditsRemainingPct float64 `json:"credits_remaining_pct"`
	UtilIfNoThrottle    float64 `json:"util_if_no_throttle"`
	UtilIfThrottled     float64 `json:"util_if_throttled"`
}

// DelayInput are the arguments of calculate_adaptive_delay in its
// window_start/current_time mode (the only mode calculate_pacing_decision
// uses).
type DelayInput struct {
	Util            float64   // current utilisation, percent
	WindowStart     time.Time // resets_at minus the window length
	Now             time.Time
	RemainingHours  float64 // time_remaining_hours
	WindowHours     float64 // 5 or 168; >= 168 selects the weekend-aware rules
	MinDelay        int     // base_delay
	MaxDelay        int
	SafetyBufferPct float64
	PreloadHours    float64
	WeeklyLimit     bool
	// ThresholdPercent is warden's tolerance above the safe allowance
	// (0 = the reference's behaviour).
	ThresholdPercent float64
}

// Trace is the working of AdaptiveDelay, kept for `warden pace --explain`.
// Fields after Step are zero when the step that settled the delay came
// before they were computed.
type Trace struct {
	Step             Step
	TimeElapsedPct   float64 // step 4
	ElapsedHours     float64 // step 5
	RemainingHours   float64
	Overage          float64 // util - safe allowance
	BurnRate         float64 // step 7, points per hour
	TargetBurnRate   float64 // step 9
	Slowdown         float64 // step 9
	Multiplier       int     // step 10, 0 when the formula was not used
	FormulaDelay     float64 // step 10, min_delay*(1/slowdown-1)*multiplier before int() and bounds
	ThresholdPercent float64
}

// DelayResult is what AdaptiveDelay returns.
type DelayResult struct {
	DelaySeconds int
	Strategy     Strategy
	Reason       string // set by the early returns of steps 1 and 3
	Projection   Projection
	Trace        Trace
}

// AdaptiveDelay computes the delay that brings one window back under its
// safe allowance (pacing.md, "calculate_adaptive_delay", L203–495; step
// numbers below are pacing.md's).
//
// warden's one change: wherever the reference asks whether utilisation is
// over the safe allowance (steps 3, 6 and 8) it asks whether it is over by
// more than in.ThresholdPercent points; with 0 that is the same question.
func AdaptiveDelay(in DelayInput) DelayResult {
	util := in.Util
	budgetRemaining := 100 - util
	tr := Trace{RemainingHours: in.RemainingHours, ThresholdPercent: in.ThresholdPercent}
	over := func(overage float64) bool { return overage > in.ThresholdPercent }

	// 1. Weekly limit disabled (7-day windows only).
	if in.WindowHours >= SevenDayWindowHours && !in.WeeklyLimit {
		tr.Step = StepWeeklyDisabled
		return DelayResult{
			Strategy: StrategyNone,
			Reason:   ReasonWeeklyLimitDisabled,
			Projection: Projection{
				Allowance: 100, SafeAllowance: 100, BufferRemaining: 100 - util,
				CreditsRemainingPct: budgetRemaining, UtilIfNoThrottle: util, UtilIfThrottled: util,
			},
			Trace: tr,
		}
	}

	// 2. Allowance and safe allowance.
	var allowance float64
	if in.WindowHours < SevenDayWindowHours {
		allowance = ContinuousAllowance(in.WindowStart, in.Now, in.WindowHours, in.PreloadHours)
	} else {
		allowance = WeekdayAllowance(in.WindowStart, in.Now, in.WindowHours, in.PreloadHours)
	}
	safe := SafeAllowance(allowance, in.SafetyBufferPct)
	overage := util - safe
	tr.Overage = overage
	proj := Projection{
		Allowance: allowance, SafeAllowance: safe, BufferRemaining: safe - util,
		CreditsRemainingPct: budgetRemaining, UtilIfNoThrottle: util, UtilIfThrottled: util,
	}

	// 3. Weekend emergency: both window types, before time-remaining.
	if over(overage) && IsWeekend(in.Now) {
		tr.Step = StepWeekendEmergency
		return DelayResult{DelaySeconds: in.MaxDelay, Strategy: StrategyEmergency,
			Reason: ReasonWeekendEmergency, Projection: proj, Trace: tr}
	}

	// 4. time_elapsed_pct: continuous for short windows, weekday share for
	// weekly ones.
	var elapsedPct float64
	if in.WindowHours < SevenDayWindowHours {
		total := in.WindowHours * 3600
		elapsed := max(0, min(in.Now.Sub(in.WindowStart).Seconds(), total))
		elapsedPct = elapsed / total * 100
	} else {
		windowEnd := in.WindowStart.Add(hoursToDuration(in.WindowHours))
		if tw := CountWeekdaySeconds(in.WindowStart, windowEnd); tw > 0 {
			elapsedPct = float64(CountWeekdaySeconds(in.WindowStart, in.Now)) / float64(tw) * 100
		}
	}
	// 5. Elapsed hours scale the percentage by the full window length (for
	// 7 d that is 168 h, not the 120 weekday hours).
	elapsedHours := elapsedPct / 100 * in.WindowHours
	tr.TimeElapsedPct, tr.ElapsedHours = elapsedPct, elapsedHours

	// 6. No time left.
	if in.RemainingHours <= 0 {
		tr.Step = StepNoTimeLeft
		if !over(overage) {
			return DelayResult{Strategy: StrategyNone, Projection: proj, Trace: tr}
		}
		return DelayResult{DelaySeconds: in.MaxDelay, Strategy: StrategyEmergency, Projection: proj, Trace: tr}
	}

	// 7. Burn rate and the projection without throttling.
	var burn float64
	if elapsedHours > 0 {
		burn = util / elapsedHours
	}
	tr.BurnRate = burn
	proj.UtilIfNoThrottle = util + burn*in.RemainingHours

	// 8. Under budget.
	if !over(overage) {
		tr.Step = StepUnderBudget
		proj.UtilIfThrottled = proj.UtilIfNoThrottle
		return DelayResult{Strategy: StrategyNone, Projection: proj, Trace: tr}
	}

	// 9. Target burn rate and the slowdown it needs.
	tr.Step = StepAdaptive
	var targetBurn float64
	if targetRemaining := in.SafetyBufferPct - util; targetRemaining <= 0 {
		targetBurn = budgetRemaining / in.RemainingHours * 0.5
	} else {
		targetBurn = targetRemaining / in.RemainingHours
	}
	slowdown := 1.0
	if burn > 0 {
		slowdown = targetBurn / burn
	}
	tr.TargetBurnRate, tr.Slowdown = targetBurn, slowdown

	// 10. Delay from the slowdown.
	var delay int
	switch {
	case slowdown >= 0.95:
		if slowdown < 1 {
			delay = in.MinDelay
		}
	case slowdown <= 0:
		delay = in.MaxDelay
	default:
		tr.Multiplier = delayMultiplier(in.RemainingHours)
		raw := float64(in.MinDelay) * (1/slowdown - 1) * float64(tr.Multiplier)
		tr.FormulaDelay = raw
		// int() truncates; values at or above max_delay are clamped by
		// step 11 anyway, so clamp first to keep the conversion defined.
		if raw >= float64(in.MaxDelay) {
			delay = in.MaxDelay
		} else {
			delay = int(raw)
		}
	}
	// 11. Bounds.
	delay = max(in.MinDelay, min(delay, in.MaxDelay))

	// 12. Strategy; at or below min_delay the delay is forced to 0.
	proj.UtilIfThrottled = util + targetBurn*in.RemainingHours
	var strategy Strategy
	switch {
	case delay <= in.MinDelay:
		strategy, delay = StrategyNone, 0
	case delay >= in.MaxDelay:
		strategy = StrategyEmergency
	case overage < 5:
		strategy = StrategyMinimal
	case overage < 20:
		strategy = StrategyGradual
	default:
		strategy = StrategyAggressive
	}
	return DelayResult{DelaySeconds: delay, Strategy: strategy, Projection: proj, Trace: tr}
}

// delayMultiplier is step 10's time-pressure multiplier: 60 with under an
// hour left, 40 with under three, else 20.
func delayMultiplier(remainingHours float64) int {
	switch {
	case remainingHours < 1:
		return 60
	case remainingHours < 3:
		return 40
	default:
		return 20
	}
}
