package pace

import (
	"fmt"
	"testing"
	"time"
)

// fiveIn is a 5-hour window as Decide passes it: 0.5 h preload, 5/350 s,
// 95 % buffer.
func fiveIn(util float64, start, now time.Time, remaining float64) DelayInput {
	return DelayInput{Util: util, WindowStart: start, Now: now, RemainingHours: remaining,
		WindowHours: 5, MinDelay: 5, MaxDelay: 350, SafetyBufferPct: 95, PreloadHours: 0.5, WeeklyLimit: true}
}

// sevenIn is a 7-day window with the default 12 h preload.
func sevenIn(util float64, start, now time.Time, remaining float64) DelayInput {
	return DelayInput{Util: util, WindowStart: start, Now: now, RemainingHours: remaining,
		WindowHours: 168, MinDelay: 5, MaxDelay: 350, SafetyBufferPct: 95, PreloadHours: 12, WeeklyLimit: true}
}

func with(in DelayInput, f func(*DelayInput)) DelayInput { f(&in); return in }

func TestAdaptiveDelay(t *testing.T) {
	t.Parallel()
	// Mid-window 5-hour case used by most rows: start Mon 10:00, now
	// 12:30, 2.5 h elapsed of 5, 2.5 h left.
	//   allowance = 9,000/18,000*100 = 50; safe = 50*0.95 = 47.5
	//   time_elapsed_pct = 50; elapsed hours = 0.5*5 = 2.5
	//   burn = util/2.5; multiplier 40 (1 <= 2.5 < 3)
	//   target_burn = (95-util)/2.5, so slowdown = (95-util)/util
	//   delay = int(5*(util/(95-util) - 1)*40)
	ws, mid := at(3, 10, 0, 0), at(3, 12, 30, 0)
	tests := []struct {
		name     string
		in       DelayInput
		delay    int
		strategy Strategy
		step     Step
		reason   string
		proj     *Projection // checked when set
		check    func(t *testing.T, r DelayResult)
	}{
		// overage = 47.5-47.5 = 0 <= 0. burn = 19; no-throttle projection
		// 47.5 + 19*2.5 = 95; throttled projection is the same.
		{name: "under budget at the safe allowance", in: fiveIn(47.5, ws, mid, 2.5),
			strategy: StrategyNone, step: StepUnderBudget,
			proj: &Projection{Allowance: 50, SafeAllowance: 47.5, BufferRemaining: 0,
				CreditsRemainingPct: 52.5, UtilIfNoThrottle: 95, UtilIfThrottled: 95}},
		// slowdown = 47/48 = 0.979 >= 0.95 and < 1: min_delay 5, which
		// step 12 forces to 0.
		{name: "slowdown 0.979: min_delay forced to 0", in: fiveIn(48, ws, mid, 2.5),
			strategy: StrategyNone, step: StepAdaptive,
			check: func(t *testing.T, r DelayResult) {
				near(t, "slowdown", r.Trace.Slowdown, 47.0/48)
				if r.Trace.Multiplier != 0 {
					t.Errorf("the formula must not run at slowdown >= 0.95")
				}
			}},
		// slowdown = 46.29/48.71 = 0.950318 >= 0.95: none. (The formula
		// would give int(5*(48.71/46.29-1)*40) = int(10.46) = 10.)
		{name: "slowdown just above 0.95", in: fiveIn(48.71, ws, mid, 2.5),
			strategy: StrategyNone, step: StepAdaptive},
		// slowdown = 46.28/48.72 = 0.949918 < 0.95: formula
		// int(5*(48.72/46.28-1)*40) = int(200*2.44/46.28) = int(10.54) = 10;
		// overage 48.72-47.5 = 1.22 < 5: minimal.
		{name: "slowdown just below 0.95", in: fiveIn(48.72, ws, mid, 2.5),
			delay: 10, strategy: StrategyMinimal, step: StepAdaptive},
		// overage 4.9; burn 20.96; target_burn 42.6/2.5 = 17.04;
		// int(5*(20.96/17.04-1)*40) = int(200*3.92/17.04) = int(46.009) = 46.
		// Projections: 52.4+20.96*2.5 = 104.8; 52.4+17.04*2.5 = 95.
		{name: "minimal below overage 5", in: fiveIn(52.4, ws, mid, 2.5),
			delay: 46, strategy: StrategyMinimal, step: StepAdaptive,
			proj: &Projection{Allowance: 50, SafeAllowance: 47.5, BufferRemaining: -4.9,
				CreditsRemainingPct: 47.6, UtilIfNoThrottle: 104.8, UtilIfThrottled: 95}},
		// overage exactly 5 is not < 5: gradual. burn 21, target 17:
		// int(200*(21/17-1)) = int(200*4/17) = int(47.06) = 47.
		{name: "overage exactly 5 is gradual", in: fiveIn(52.5, ws, mid, 2.5),
			delay: 47, strategy: StrategyGradual, step: StepAdaptive,
			check: func(t *testing.T, r DelayResult) {
				near(t, "burn", r.Trace.BurnRate, 21)
				near(t, "target burn", r.Trace.TargetBurnRate, 17)
				if r.Trace.Multiplier != 40 {
					t.Errorf("multiplier = %d, want 40 for 2.5 h left", r.Trace.Multiplier)
				}
			}},
		// overage 19.9; burn 26.96; target 27.6/2.5 = 11.04;
		// int(200*(26.96/11.04-1)) = int(200*15.92/11.04) = int(288.41) = 288.
		{name: "gradual below overage 20", in: fiveIn(67.4, ws, mid, 2.5),
			delay: 288, strategy: StrategyGradual, step: StepAdaptive},
		// overage exactly 20: aggressive. burn 27, target 27.5/2.5 = 11:
		// int(200*16/11) = int(290.91) = 290 < 350.
		{name: "overage exactly 20 is aggressive", in: fiveIn(67.5, ws, mid, 2.5),
			delay: 290, strategy: StrategyAggressive, step: StepAdaptive},
		// burn 28, target 25/2.5 = 10: 200*(2.8-1) = 360 -> bound 350:
		// emergency.
		{name: "bounded at max_delay is emergency", in: fiveIn(70, ws, mid, 2.5),
			delay: 350, strategy: StrategyEmergency, step: StepAdaptive},
		// util 100: target_remaining = -5 <= 0, so target_burn =
		// (100-100)/2.5*0.5 = 0; slowdown 0 <= 0: max_delay.
		{name: "slowdown 0 at 100 %", in: fiveIn(100, ws, mid, 2.5),
			delay: 350, strategy: StrategyEmergency, step: StepAdaptive,
			check: func(t *testing.T, r DelayResult) {
				near(t, "util_if_throttled", r.Projection.UtilIfThrottled, 100)
			}},
		// util 100.5: target_burn = -0.5/2.5*0.5 = -0.1 < 0: max_delay.
		{name: "negative slowdown above 100 %", in: fiveIn(100.5, ws, mid, 2.5),
			delay: 350, strategy: StrategyEmergency, step: StepAdaptive},
		// The halving branch with a mid delay: 4 h 50 min elapsed, 10 min
		// (1/6 h) left. allowance = 17,400/18,000*100 = 96.667,
		// safe = 91.833, util 95: overage 3.167. target_remaining = 0 <= 0:
		// target_burn = (100-95)/(1/6)*0.5 = 15. burn = 95/(29/6) = 570/29.
		// 1/slowdown = 570/(29*15) = 38/29; multiplier 60 (< 1 h):
		// int(5*(9/29)*60) = int(93.10) = 93. Throttled projection
		// 95 + 15/6 = 97.5 (without halving the slowdown would be 0).
		{name: "target at buffer: half the remaining budget", in: fiveIn(95, ws, at(3, 14, 50, 0), 1.0/6),
			delay: 93, strategy: StrategyMinimal, step: StepAdaptive,
			check: func(t *testing.T, r DelayResult) {
				near(t, "target burn", r.Trace.TargetBurnRate, 15)
				near(t, "util_if_throttled", r.Projection.UtilIfThrottled, 97.5)
			}},
		// Multiplier boundaries. 4 h elapsed, exactly 1 h left:
		// allowance 80, safe 76, util 80: burn 20, target 15, slowdown
		// 0.75; 1 h is not < 1, so multiplier 40: int(5*(1/3)*40) = 66
		// (60 would give 100).
		{name: "exactly 1 h left uses multiplier 40", in: fiveIn(80, at(3, 8, 0, 0), at(3, 12, 0, 0), 1),
			delay: 66, strategy: StrategyMinimal, step: StepAdaptive},
		// One second later, 3,599 s left: multiplier 60.
		// burn = 80/(14,401/3,600) = 19.99861; target = 15/(3,599/3,600)
		// = 15.00417; 1/slowdown - 1 = 0.33287; int(5*0.33287*60) =
		// int(99.86) = 99.
		{name: "just under 1 h left uses multiplier 60",
			in:    fiveIn(80, at(3, 8, 0, 0), at(3, 12, 0, 1), 3599.0/3600),
			delay: 99, strategy: StrategyMinimal, step: StepAdaptive},
		// 2 h elapsed, exactly 3 h left: allowance 40, safe 38, util 50:
		// overage 12; burn 25, target 45/3 = 15, slowdown 0.6; 3 h is not
		// < 3: multiplier 20: int(5*(2/3)*20) = 66 (40 would give 133).
		{name: "exactly 3 h left uses multiplier 20", in: fiveIn(50, ws, at(3, 12, 0, 0), 3),
			delay: 66, strategy: StrategyGradual, step: StepAdaptive},
		// Formula result equal to min_delay is forced to 0. Same window,
		// util 39.2: slowdown = 2*55.8/(3*39.2) = 0.94898 < 0.95;
		// int(5*(117.6/111.6-1)*20) = int(5.376) = 5 <= 5: none, 0.
		{name: "formula giving min_delay is none", in: fiveIn(39.2, ws, at(3, 12, 0, 0), 3),
			strategy: StrategyNone, step: StepAdaptive},
		// util 39.5: int(100*(118.5/111-1)) = int(6.757) = 6 > 5: minimal.
		{name: "formula giving min_delay+1 throttles", in: fiveIn(39.5, ws, at(3, 12, 0, 0), 3),
			delay: 6, strategy: StrategyMinimal, step: StepAdaptive},
		// At the window start: allowance is the 10 % preload, safe 9.5,
		// util 20 is over, but elapsed hours 0 give burn 0 and slowdown
		// 1.0: delay 0, none.
		{name: "no elapsed time: burn 0, slowdown 1", in: fiveIn(20, ws, ws, 5),
			strategy: StrategyNone, step: StepAdaptive,
			check: func(t *testing.T, r DelayResult) {
				near(t, "slowdown", r.Trace.Slowdown, 1)
				near(t, "util_if_no_throttle", r.Projection.UtilIfNoThrottle, 20)
			}},
		// No time left (window end): allowance 100, safe 95.
		// util 96: overage 1 > 0: max_delay, emergency.
		{name: "no time left and over", in: fiveIn(96, ws, at(3, 15, 0, 0), 0),
			delay: 350, strategy: StrategyEmergency, step: StepNoTimeLeft,
			proj: &Projection{Allowance: 100, SafeAllowance: 95, BufferRemaining: -1,
				CreditsRemainingPct: 4, UtilIfNoThrottle: 96, UtilIfThrottled: 96}},
		// util 95: overage 0: none.
		{name: "no time left and at the safe allowance", in: fiveIn(95, ws, at(3, 15, 0, 0), 0),
			strategy: StrategyNone, step: StepNoTimeLeft},
		{name: "negative time left counts as none left", in: fiveIn(96, ws, at(3, 15, 0, 0), -0.5),
			delay: 350, strategy: StrategyEmergency, step: StepNoTimeLeft},
		// Weekend emergency on a 5-hour window: Sat 10:00 -> 12:30, the
		// same figures as "slowdown 0.979" (util 48 > safe 47.5), which on a
		// Monday gives 0, give max_delay on a Saturday.
		{name: "weekend emergency applies to the 5-hour window",
			in:    fiveIn(48, at(8, 10, 0, 0), at(8, 12, 30, 0), 2.5),
			delay: 350, strategy: StrategyEmergency, step: StepWeekendEmergency, reason: ReasonWeekendEmergency,
			proj: &Projection{Allowance: 50, SafeAllowance: 47.5, BufferRemaining: -0.5,
				CreditsRemainingPct: 52, UtilIfNoThrottle: 48, UtilIfThrottled: 48}},
		// util 47.5 = safe on Saturday: not over, so on to under budget.
		{name: "weekend at the safe allowance is not an emergency",
			in:       fiveIn(47.5, at(8, 10, 0, 0), at(8, 12, 30, 0), 2.5),
			strategy: StrategyNone, step: StepUnderBudget},
		// The weekend check precedes time-remaining: Sunday, no time left.
		{name: "weekend emergency before no-time-left",
			in:    fiveIn(96, at(9, 10, 0, 0), at(9, 15, 0, 0), 0),
			delay: 350, strategy: StrategyEmergency, step: StepWeekendEmergency, reason: ReasonWeekendEmergency},
		// 7-day weekend: start Wed 00:00, Sat 12:00: 72 weekday h of 120:
		// allowance 60 (frozen), safe 57; util 57.1 > 57.
		{name: "weekend emergency on the 7-day window",
			in:    sevenIn(57.1, at(5, 0, 0, 0), at(8, 12, 0, 0), 84),
			delay: 350, strategy: StrategyEmergency, step: StepWeekendEmergency, reason: ReasonWeekendEmergency},
		// 7-day, start Mon 00:00, now Mon 12:00 (156 h left). Preload:
		// allowance 12/120*100 = 10, safe 9.5; util 12, overage 2.5.
		// time_elapsed_pct = 43,200/432,000*100 = 10; elapsed hours are
		// 10 % of 168 = 16.8 (not 12). burn = 12/16.8 = 0.714286;
		// target = 83/156 = 0.532051; slowdown = 83*16.8/(156*12) = 0.744872;
		// multiplier 20: int(5*(1/0.744872-1)*20) = int(34.25) = 34.
		// (With 12 elapsed hours it would be int(87.9) = 87.)
		// Projection no throttle: 12 + 0.714286*156 = 123.428571.
		{name: "7-day elapsed hours scale by 168", in: sevenIn(12, at(3, 0, 0, 0), at(3, 12, 0, 0), 156),
			delay: 34, strategy: StrategyMinimal, step: StepAdaptive,
			check: func(t *testing.T, r DelayResult) {
				near(t, "time_elapsed_pct", r.Trace.TimeElapsedPct, 10)
				near(t, "elapsed hours", r.Trace.ElapsedHours, 16.8)
				near(t, "util_if_no_throttle", r.Projection.UtilIfNoThrottle, 12+12/16.8*156)
			}},
		// 7-day, util 96 on Thu 12:00 (84 weekday h: allowance 70, safe
		// 66.5, 84 h left): target_remaining -1 -> target_burn =
		// 4/84*0.5 = 1/42; throttled projection 96 + 84/42 = 98.
		// slowdown = (1/42)/(96/117.6) = 0.029: max_delay.
		{name: "7-day over the buffer", in: sevenIn(96, at(3, 0, 0, 0), at(6, 12, 0, 0), 84),
			delay: 350, strategy: StrategyEmergency, step: StepAdaptive,
			check: func(t *testing.T, r DelayResult) {
				near(t, "util_if_throttled", r.Projection.UtilIfThrottled, 98)
			}},
		// Weekly limit off: a 7-day window never throttles, even over
		// budget on a weekend; allowance and safe are reported as 100.
		{name: "weekly limit disabled",
			in:       with(sevenIn(99, at(5, 0, 0, 0), at(8, 12, 0, 0), 84), func(in *DelayInput) { in.WeeklyLimit = false }),
			strategy: StrategyNone, step: StepWeeklyDisabled, reason: ReasonWeeklyLimitDisabled,
			proj: &Projection{Allowance: 100, SafeAllowance: 100, BufferRemaining: 1,
				CreditsRemainingPct: 1, UtilIfNoThrottle: 99, UtilIfThrottled: 99}},
		// The weekly switch does not apply to 5-hour windows: same as the
		// util-70 row.
		{name: "weekly switch ignored by the 5-hour window",
			in:    with(fiveIn(70, ws, mid, 2.5), func(in *DelayInput) { in.WeeklyLimit = false }),
			delay: 350, strategy: StrategyEmergency, step: StepAdaptive},
		// warden's threshold: overage 5 is not more than 5 points: none.
		{name: "threshold: overage equal to it does not throttle",
			in:       with(fiveIn(52.5, ws, mid, 2.5), func(in *DelayInput) { in.ThresholdPercent = 5 }),
			strategy: StrategyNone, step: StepUnderBudget},
		// Over the threshold, the delay is the reference's (47, gradual).
		{name: "threshold: overage above it throttles as usual",
			in:    with(fiveIn(52.5, ws, mid, 2.5), func(in *DelayInput) { in.ThresholdPercent = 4.9 }),
			delay: 47, strategy: StrategyGradual, step: StepAdaptive},
		// Saturday, overage 0.5 within a threshold of 1: no emergency.
		{name: "threshold applies to the weekend emergency",
			in:       with(fiveIn(48, at(8, 10, 0, 0), at(8, 12, 30, 0), 2.5), func(in *DelayInput) { in.ThresholdPercent = 1 }),
			strategy: StrategyNone, step: StepUnderBudget},
		// No time left, overage 1 within a threshold of 2: none.
		{name: "threshold applies to no-time-left",
			in:       with(fiveIn(96, ws, at(3, 15, 0, 0), 0), func(in *DelayInput) { in.ThresholdPercent = 2 }),
			strategy: StrategyNone, step: StepNoTimeLeft},
		// base_delay and max_delay honoured: util 67.5 with 10/600:
		// int(10*(16/11)*40) = int(581.8) = 581 < 600: aggressive.
		{name: "base 10 max 600",
			in:    with(fiveIn(67.5, ws, mid, 2.5), func(in *DelayInput) { in.MinDelay, in.MaxDelay = 10, 600 }),
			delay: 581, strategy: StrategyAggressive, step: StepAdaptive},
		// util 52.5 with base 10: int(10*(4/17)*40) = int(94.1) = 94.
		{name: "base 10 doubles the formula",
			in:    with(fiveIn(52.5, ws, mid, 2.5), func(in *DelayInput) { in.MinDelay = 10 }),
			delay: 94, strategy: StrategyGradual, step: StepAdaptive},
		// max 200: the util-67.5 delay 290 is bounded to 200: emergency.
		{name: "lower max_delay bounds and makes emergency",
			in:    with(fiveIn(67.5, ws, mid, 2.5), func(in *DelayInput) { in.MaxDelay = 200 }),
			delay: 200, strategy: StrategyEmergency, step: StepAdaptive},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := AdaptiveDelay(tt.in)
			if r.DelaySeconds != tt.delay || r.Strategy != tt.strategy {
				t.Errorf("delay, strategy = %d, %q; want %d, %q", r.DelaySeconds, r.Strategy, tt.delay, tt.strategy)
			}
			if r.Trace.Step != tt.step {
				t.Errorf("step = %q, want %q", r.Trace.Step, tt.step)
			}
			if r.Reason != tt.reason {
				t.Errorf("reason = %q, want %q", r.Reason, tt.reason)
			}
			if p := tt.proj; p != nil {
				near(t, "allowance", r.Projection.Allowance, p.Allowance)
				near(t, "safe_allowance", r.Projection.SafeAllowance, p.SafeAllowance)
				near(t, "buffer_remaining", r.Projection.BufferRemaining, p.BufferRemaining)
				near(t, "credits_remaining_pct", r.Projection.CreditsRemainingPct, p.CreditsRemainingPct)
				near(t, "util_if_no_throttle", r.Projection.UtilIfNoThrottle, p.UtilIfNoThrottle)
				near(t, "util_if_throttled", r.Projection.UtilIfThrottled, p.UtilIfThrottled)
			}
			if tt.check != nil {
				tt.check(t, r)
			}
		})
	}
}

func TestDelayMultiplier(t *testing.T) {
	t.Parallel()
	tests := []struct {
		remaining float64
		want      int
	}{{0.01, 60}, {0.999, 60}, {1, 40}, {2.999, 40}, {3, 20}, {150, 20}}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%gh", tt.remaining), func(t *testing.T) {
			t.Parallel()
			if got := delayMultiplier(tt.remaining); got != tt.want {
				t.Errorf("delayMultiplier(%g) = %d, want %d", tt.remaining, got, tt.want)
			}
		})
	}
}
