package pace

import (
	"fmt"
	"strings"
	"time"
)

// Summary is a short human account of a decision d = Decide(in, p): when,
// what happens after each tool call, which window drives it, and both
// windows' figures.
func Summary(in Input, d Decision) string {
	now := in.Now.UTC()
	var b strings.Builder
	fmt.Fprintf(&b, "Pacing at %s UTC (%s)\n", now.Format("2006-01-02 15:04:05"), now.Weekday())
	if d.ShouldThrottle {
		fmt.Fprintf(&b, "Throttle: wait %d s after each tool call (strategy %s).\n", d.DelaySeconds, d.Strategy)
	} else {
		b.WriteString("No throttling.\n")
	}
	if w := d.ConstrainedWindow; w != nil {
		// The target is the allowance (an even pace through the window);
		// the delay starts above the safe allowance, a share of it. Say
		// both, or "below its target" beside "wait 99 s" reads as a
		// contradiction.
		st := d.FiveHour
		if *w == SevenDay {
			st = d.SevenDay
		}
		fmt.Fprintf(&b, "Most constrained: the %s window, %s its target (the allowance, %.2f%%: what an even pace would have used by now).\n",
			*w, pointsVs(d.DeviationPercent), st.Target)
		if pr := d.Projection; pr != nil {
			over := "under"
			if st.Utilization > pr.SafeAllowance {
				over = "over"
			}
			fmt.Fprintf(&b, "Throttling starts above the safe allowance, %.2f%% (the allowance less the safety buffer); %.2f%% used is %s it.\n",
				pr.SafeAllowance, st.Utilization, over)
		}
	} else {
		b.WriteString("No window takes part (no active window, stale figures or both limits switched off).\n")
	}
	fmt.Fprintf(&b, "  5-hour  %s\n", statusLine(now, in.FiveHour, d.FiveHour))
	fmt.Fprintf(&b, "  7-day   %s\n", statusLine(now, in.SevenDay, d.SevenDay))
	if d.Error != "" {
		fmt.Fprintf(&b, "Note: %s.\n", d.Error)
	}
	return b.String()
}

func statusLine(now time.Time, w Window, st WindowStatus) string {
	used := fmt.Sprintf("%5.1f%% used", st.Utilization)
	switch {
	case w.ResetsAt == nil:
		return used + "  no active window (no reset time)"
	case st.TimeElapsedPct == StaleTimePercent:
		return used + fmt.Sprintf("  stale: the reset time %s has passed", w.ResetsAt.UTC().Format(time.RFC3339))
	}
	return used + fmt.Sprintf("  target %5.1f%%  %5.1f%% of the window elapsed, resets %s (%s)",
		st.Target, st.TimeElapsedPct, w.ResetsAt.UTC().Format("2006-01-02 15:04 UTC"), untilText(w.ResetsAt.Sub(now)))
}

func untilText(d time.Duration) string {
	if d <= 0 {
		return "now"
	}
	d = d.Round(time.Minute)
	if h := int(d.Hours()); h >= 24 {
		return fmt.Sprintf("in %dd %dh", h/24, h%24)
	}
	return "in " + strings.TrimSuffix(d.String(), "0s")
}

// pointsVs words a deviation: "3.20 points above" / "1.00 points below" /
// "exactly on".
func pointsVs(dev float64) string {
	switch {
	case dev > 0:
		return fmt.Sprintf("%.2f points above", dev)
	case dev < 0:
		return fmt.Sprintf("%.2f points below", -dev)
	}
	return "exactly on"
}

// Explain gives the reasoning behind d, which must be Decide(in, p), in
// sentences: which windows took part and why, the chosen window's allowance
// and safe allowance, the deviation and overage, and why this delay and
// strategy (`warden pace --explain`, SPEC §2).
func Explain(in Input, p Params, d Decision) []string {
	now := in.Now.UTC()
	var out []string
	say := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }

	taking := 0
	for _, w := range []struct {
		name    WindowName
		win     Window
		st      WindowStatus
		enabled bool
		flag    string
	}{
		{FiveHour, in.FiveHour, d.FiveHour, p.FiveHourLimit, "five_hour_limit"},
		{SevenDay, in.SevenDay, d.SevenDay, p.WeeklyLimit, "weekly_limit"},
	} {
		switch {
		case w.win.ResetsAt == nil:
			say("%s window: no reset time, so no active window; it takes no part.", w.name)
		case w.st.TimeElapsedPct == StaleTimePercent:
			say("%s window: its reset time %s is more than %d s in the past, so its %.1f%% belongs to a window that has ended (stale); it takes no part.",
				w.name, w.win.ResetsAt.UTC().Format(time.RFC3339), int(StaleGrace.Seconds()), w.st.Utilization)
		default:
			part := "takes part"
			if w.enabled {
				taking++
			} else {
				part = fmt.Sprintf("takes no part because %s is off", w.flag)
			}
			say("%s window: %.2f%% used against a target (allowance) of %.2f%%, %s it; %.1f%% of the window has elapsed; it %s.",
				w.name, w.st.Utilization, w.st.Target, pointsVs(w.st.Utilization-w.st.Target), w.st.TimeElapsedPct, part)
		}
	}
	if d.ConstrainedWindow == nil {
		say("No window takes part, so there is no delay.")
		return out
	}
	win := *d.ConstrainedWindow
	if taking == 1 {
		say("The %s window is the only one taking part, so it decides (deviation %+.2f points).", win, d.DeviationPercent)
	} else {
		say("The %s window is the most constrained: its deviation (utilisation minus target) of %+.2f points is the larger (a tie goes to the 5-hour window).",
			win, d.DeviationPercent)
	}

	tr, pr := d.Trace, d.Projection
	if tr.Step == StepWeeklyDisabled {
		say("The weekly limit is off: no delay.")
		return out
	}
	if win == FiveHour {
		say("Allowance: %.2f%%. The 5-hour window accrues evenly around the clock; its first %.1f h are preloaded at %.0f%%.",
			pr.Allowance, FiveHourPreloadHours, FiveHourPreloadHours/FiveHourWindowHours*100)
	} else {
		reset := in.SevenDay.ResetsAt.UTC()
		start := reset.Add(-168 * time.Hour)
		e := float64(CountWeekdaySeconds(start, now)) / 3600
		tw := float64(CountWeekdaySeconds(start, reset)) / 3600
		preload := "no preload"
		if p.PreloadHours > 0 {
			preload = fmt.Sprintf("the first %g weekday hours are preloaded at %.2f%%", p.PreloadHours, p.PreloadHours/tw*100)
		}
		say("Allowance: %.2f%%. The 7-day window accrues on weekdays only (weekends are frozen): %.1f of its %.0f weekday hours have elapsed; %s.",
			pr.Allowance, e, tw, preload)
	}
	say("Safe allowance: %.2f%% × %g%% = %.2f%%; utilisation %.2f%% is %s it.",
		pr.Allowance, p.SafetyBufferPct, pr.SafeAllowance, in.utilOf(win), pointsVs(tr.Overage))
	if p.ThresholdPercent > 0 {
		say("Threshold: warden throttles only when utilisation is more than %g points over the safe allowance.", p.ThresholdPercent)
	}

	switch tr.Step {
	case StepWeekendEmergency:
		why := "the allowance stays frozen until Monday"
		if win == FiveHour {
			why = "on a weekend the reference treats any window over its safe allowance, the 5-hour one included, as an emergency"
		}
		say("It is %s (UTC) and utilisation is over the safe allowance; %s, so the delay is max_delay, %d s (emergency).",
			now.Weekday(), why, d.DelaySeconds)
		return out
	case StepNoTimeLeft:
		if d.DelaySeconds > 0 {
			say("The window resets now (no time left) and utilisation is over the safe allowance: max_delay, %d s (emergency).", d.DelaySeconds)
		} else {
			say("The window resets now (no time left) and utilisation is within the safe allowance: no delay.")
		}
		return out
	}

	say("%.2f h remain. %.1f%% of the window's time has elapsed, counted as %.2f h of %g; at %.3f points/h utilisation would reach %.1f%% by the reset.",
		tr.RemainingHours, tr.TimeElapsedPct, tr.ElapsedHours, windowHours(win), tr.BurnRate, pr.UtilIfNoThrottle)
	if tr.Step == StepUnderBudget {
		say("Utilisation is within the safe allowance: no delay (strategy none).")
		return out
	}
	say("To end near %g%% the burn rate must be %.3f points/h, a slowdown factor of %.4f (target burn ÷ current burn).",
		p.SafetyBufferPct, tr.TargetBurnRate, tr.Slowdown)
	switch {
	case tr.Slowdown >= 0.95:
		say("A slowdown factor of 0.95 or more is close enough to the current pace: at most base_delay (%d s), which is dropped to 0: no throttling.", p.BaseDelay)
		return out
	case tr.Slowdown <= 0:
		say("The budget is used up (slowdown factor 0 or less): max_delay, %d s (emergency).", d.DelaySeconds)
		return out
	}
	say("Delay = int(base_delay %d s × (1/%.4f − 1) × %d) = int(%.2f); the multiplier is %d because %s.",
		p.BaseDelay, tr.Slowdown, tr.Multiplier, tr.FormulaDelay, tr.Multiplier, multiplierWhy(tr.Multiplier))
	switch d.Strategy {
	case StrategyNone:
		say("That is at most base_delay (%d s), which is dropped to 0: no throttling.", p.BaseDelay)
	case StrategyEmergency:
		say("That reaches max_delay, so the delay is %d s (emergency).", d.DelaySeconds)
	case StrategyMinimal:
		say("Delay %d s; strategy minimal because the overage is under 5 points.", d.DelaySeconds)
	case StrategyGradual:
		say("Delay %d s; strategy gradual because the overage is 5 to under 20 points.", d.DelaySeconds)
	case StrategyAggressive:
		say("Delay %d s; strategy aggressive because the overage is 20 points or more.", d.DelaySeconds)
	}
	if d.ShouldThrottle {
		say("At the target burn rate utilisation would end near %.1f%%.", pr.UtilIfThrottled)
	}
	return out
}

func (in Input) utilOf(w WindowName) float64 {
	if w == FiveHour {
		return in.FiveHour.Utilization
	}
	return in.SevenDay.Utilization
}

func windowHours(w WindowName) float64 {
	if w == FiveHour {
		return FiveHourWindowHours
	}
	return SevenDayWindowHours
}

func multiplierWhy(m int) string {
	switch m {
	case 60:
		return "less than 1 h remains"
	case 40:
		return "1 to under 3 h remain"
	}
	return "3 h or more remain"
}
