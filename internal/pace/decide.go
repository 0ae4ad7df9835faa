package pace

import (
	"fmt"
	"math"
	"time"
)

// Window is one usage window as the quota source reports it.
type Window struct {
	// Utilization is the percentage of the window's quota used.
	Utilization float64
	// ResetsAt is when the window resets; nil when the source reports no
	// active window.
	ResetsAt *time.Time
}

// Input is everything Decide needs: the time to decide at and both
// windows' figures.
type Input struct {
	Now      time.Time
	FiveHour Window
	SevenDay Window
}

// WindowStatus is one window's entry in a Decision.
type WindowStatus struct {
	Utilization    float64 `json:"utilization"`
	Target         float64 `json:"target"`
	TimeElapsedPct float64 `json:"time_elapsed_pct"`
}

// Decision is the reference's pacing decision; its JSON has exactly the
// reference's keys (pacing.md, "Result keys" and "Staleness"):
//
//   - strategy and projection only when a window was chosen;
//   - stale_data (true) and error only when a reset time is stale;
//   - constrained_window is null when no window was chosen.
//
// Reason and Trace are warden's working for --explain and never marshalled.
type Decision struct {
	ShouldThrottle    bool         `json:"should_throttle"`
	DelaySeconds      int          `json:"delay_seconds"`
	StaleData         bool         `json:"stale_data,omitempty"`
	ConstrainedWindow *WindowName  `json:"constrained_window"`
	DeviationPercent  float64      `json:"deviation_percent"`
	FiveHour          WindowStatus `json:"five_hour"`
	SevenDay          WindowStatus `json:"seven_day"`
	Strategy          Strategy     `json:"strategy,omitempty"`
	Projection        *Projection  `json:"projection,omitempty"`
	Error             string       `json:"error,omitempty"`

	// Reason is the reference's reason key of an early return, if any.
	Reason string `json:"-"`
	// Trace is the chosen window's AdaptiveDelay working; nil when no
	// window was chosen.
	Trace *Trace `json:"-"`
}

// Decide is the whole pacing decision for one moment (pacing.md,
// "calculate_pacing_decision", pacing_engine.py L18–248), with warden's
// differences: p.BaseDelay, p.MaxDelay and p.ThresholdPercent are honoured
// (call CapMaxDelay first to keep MaxDelay under the hook timeout).
//
// Times are converted to UTC first. Utilisations must be finite numbers.
func Decide(in Input, p Params) Decision {
	now := in.Now.UTC()
	fiveReset, sevenReset := utcPtr(in.FiveHour.ResetsAt), utcPtr(in.SevenDay.ResetsAt)
	fiveUtil, sevenUtil := in.FiveHour.Utilization, in.SevenDay.Utilization

	// Time percentages and staleness (L60–88).
	fivePct := TimePercent(fiveReset, now, FiveHourWindowHours)
	sevenPct := TimePercent(sevenReset, now, SevenDayWindowHours)
	fiveStale, sevenStale := fivePct == StaleTimePercent, sevenPct == StaleTimePercent
	if fiveStale && sevenStale {
		return Decision{
			StaleData: true,
			FiveHour:  WindowStatus{Utilization: fiveUtil, TimeElapsedPct: StaleTimePercent},
			SevenDay:  WindowStatus{Utilization: sevenUtil, TimeElapsedPct: StaleTimePercent},
			Error:     "Both window data is stale (resets_at has passed)",
		}
	}
	if fiveStale {
		fiveReset = nil
	}
	if sevenStale {
		sevenReset = nil
	}

	// Targets (L99–128): a window without a reset time has target 0.
	var fiveTarget, sevenTarget float64
	if fiveReset != nil {
		fiveTarget = ContinuousAllowance(fiveReset.Add(-5*time.Hour), now, FiveHourWindowHours, FiveHourPreloadHours)
	}
	if sevenReset != nil {
		sevenTarget = WeekdayAllowance(sevenReset.Add(-168*time.Hour), now, SevenDayWindowHours, p.PreloadHours)
	}

	// Most constrained window among the active, enabled ones (L133–144).
	window, deviation := MostConstrained(
		Candidate{Active: fiveReset != nil && p.FiveHourLimit, Util: fiveUtil, Target: fiveTarget},
		Candidate{Active: sevenReset != nil && p.WeeklyLimit, Util: sevenUtil, Target: sevenTarget},
	)
	d := Decision{
		ConstrainedWindow: window,
		DeviationPercent:  deviation,
		FiveHour:          WindowStatus{Utilization: fiveUtil, Target: fiveTarget, TimeElapsedPct: fivePct},
		SevenDay:          WindowStatus{Utilization: sevenUtil, Target: sevenTarget, TimeElapsedPct: sevenPct},
	}

	// Delay for the chosen window only (L150–205).
	if window != nil {
		di := DelayInput{
			Now:              now,
			MinDelay:         p.BaseDelay,
			MaxDelay:         p.MaxDelay,
			SafetyBufferPct:  p.SafetyBufferPct,
			ThresholdPercent: p.ThresholdPercent,
		}
		var reset time.Time
		if *window == FiveHour {
			reset = *fiveReset
			di.Util, di.WindowHours = fiveUtil, FiveHourWindowHours
			di.WindowStart = reset.Add(-5 * time.Hour)
			di.PreloadHours, di.WeeklyLimit = FiveHourPreloadHours, true
		} else {
			reset = *sevenReset
			di.Util, di.WindowHours = sevenUtil, SevenDayWindowHours
			di.WindowStart = reset.Add(-168 * time.Hour)
			di.PreloadHours, di.WeeklyLimit = p.PreloadHours, p.WeeklyLimit
		}
		di.RemainingHours = math.Max(0, reset.Sub(now).Seconds()/3600)
		r := AdaptiveDelay(di)
		d.DelaySeconds, d.Strategy, d.Reason = r.DelaySeconds, r.Strategy, r.Reason
		d.Projection, d.Trace = &r.Projection, &r.Trace
	}
	d.ShouldThrottle = d.DelaySeconds > 0

	// Partial staleness (L237–246).
	// Both stale returned early above, so at most one window is stale here.
	switch {
	case fiveStale:
		d.StaleData, d.Error = true, staleError(FiveHour)
	case sevenStale:
		d.StaleData, d.Error = true, staleError(SevenDay)
	}
	return d
}

func staleError(w WindowName) string {
	return string(w) + " window data is stale (resets_at has passed)"
}

// Validate reports an input Decide cannot use: a utilisation that is not a
// finite number (it would make every figure NaN).
func (in Input) Validate() error {
	for _, w := range []struct {
		name string
		util float64
	}{{"five_hour.utilization", in.FiveHour.Utilization}, {"seven_day.utilization", in.SevenDay.Utilization}} {
		if math.IsNaN(w.util) || math.IsInf(w.util, 0) {
			return fmt.Errorf("%s is %v; it must be a finite percentage", w.name, w.util)
		}
	}
	return nil
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
