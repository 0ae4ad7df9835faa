package pace

import "time"

// TimePercent is the share of the window that has elapsed, judged from its
// reset time (pacing.md, "calculator.calculate_time_percent", calculator.py
// L32–82).
//
// A nil reset time gives 0 (no active window). A reset time in the past
// gives 100 while it is at most StaleGrace (300 s) ago and
// StaleTimePercent (-1, stale) once it is more than 300 s ago. A reset at
// least a whole window away gives 0; otherwise (window-remaining)/window*100.
func TimePercent(resetsAt *time.Time, now time.Time, windowHours float64) float64 {
	if resetsAt == nil {
		return 0
	}
	remaining := resetsAt.Sub(now)
	window := windowHours * 3600
	switch {
	case remaining <= 0:
		if remaining < -StaleGrace {
			return StaleTimePercent
		}
		return 100
	case remaining.Seconds() >= window:
		return 0
	}
	return (window - remaining.Seconds()) / window * 100
}
