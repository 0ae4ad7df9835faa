package pace

import "time"

// ContinuousAllowance is the share of the window's budget available at now
// for a window that accrues around the clock, weekends included (pacing.md,
// "Continuous allowance (5 h)", calculate_continuous_allowance_pct,
// L76–135).
//
// The elapsed time is clamped to [0, window]. While the elapsed hours are
// at most preloadHours (note <=, L128–131) the allowance is the flat
// preload preloadHours/windowHours*100; otherwise it is linear. It never
// exceeds 100 because of the clamp.
func ContinuousAllowance(windowStart, now time.Time, windowHours, preloadHours float64) float64 {
	total := windowHours * 3600
	elapsed := now.Sub(windowStart).Seconds()
	elapsed = max(0, min(elapsed, total)) // L122
	if preloadHours > 0 && elapsed/3600 <= preloadHours {
		return preloadHours / windowHours * 100
	}
	return elapsed / total * 100 // L134
}

// WeekdayAllowance is the share of the window's budget available at now for
// a window that accrues on weekdays only, so it freezes over weekends
// (pacing.md, "Weekend-aware allowance (7 d)", calculate_allowance_pct,
// L138–200).
//
// tw is the weekday seconds in the whole window, e those from windowStart to
// now. A window with no weekday second gives 100. While e is at most
// preloadHours (note <=) the allowance is the flat preload
// preloadHours/(tw/3600)*100; with no preload and now at or before the
// start it is 0; otherwise e/tw*100, which is not clamped and exceeds 100
// once now is past the window end.
func WeekdayAllowance(windowStart, now time.Time, windowHours, preloadHours float64) float64 {
	windowEnd := windowStart.Add(hoursToDuration(windowHours))
	tw := float64(CountWeekdaySeconds(windowStart, windowEnd)) // L176–177
	if tw == 0 {
		return 100 // L179–180
	}
	e := float64(CountWeekdaySeconds(windowStart, now)) // L183
	switch {
	case preloadHours > 0 && e/3600 <= preloadHours: // L189–193
		return preloadHours / (tw / 3600) * 100
	case preloadHours == 0 && !now.After(windowStart): // L194–196
		return 0
	default:
		return e / tw * 100 // L199, not clamped
	}
}

// SafeAllowance is the allowance scaled by the safety buffer (pacing.md,
// "Safe allowance", L294): allowance * (safetyBufferPct/100), in the
// reference's order of operations so the floating-point figures match.
func SafeAllowance(allowance, safetyBufferPct float64) float64 {
	return allowance * (safetyBufferPct / 100)
}

// hoursToDuration converts fractional hours to a Duration (nanosecond
// precision, like the reference's timedelta(hours=...) to the microsecond).
func hoursToDuration(h float64) time.Duration {
	return time.Duration(h * float64(time.Hour))
}
