package pace

// WindowName names a usage window the way the reference does.
type WindowName string

// The two windows, spelled as in the reference's constrained_window.
const (
	FiveHour WindowName = "5-hour"
	SevenDay WindowName = "7-day"
)

// Candidate is one window's entry to MostConstrained. An inactive window
// (the reference passes None) takes no part.
type Candidate struct {
	Active bool
	Util   float64 // utilisation, percent
	Target float64 // allowance at now, percent
}

// Deviation is how far the utilisation is above (positive) or below the
// target, in points.
func (c Candidate) Deviation() float64 { return c.Util - c.Target }

// MostConstrained picks the window furthest above its target (pacing.md,
// "determine_most_constrained_window", calculator.py L85–127). The larger
// deviation wins and a tie goes to the 5-hour window. With neither window
// active the result is no window (nil) and deviation 0.
func MostConstrained(five, seven Candidate) (*WindowName, float64) {
	switch {
	case !five.Active && !seven.Active:
		return nil, 0
	case !five.Active:
		return windowPtr(SevenDay), seven.Deviation()
	case !seven.Active:
		return windowPtr(FiveHour), five.Deviation()
	case five.Deviation() >= seven.Deviation():
		return windowPtr(FiveHour), five.Deviation()
	default:
		return windowPtr(SevenDay), seven.Deviation()
	}
}

func windowPtr(w WindowName) *WindowName { return &w }
