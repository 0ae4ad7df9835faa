package pace

import (
	"testing"
	"time"
)

func TestContinuousAllowance(t *testing.T) {
	t.Parallel()
	ws := at(3, 10, 0, 0) // window start, Monday 10:00
	tests := []struct {
		name          string
		start         time.Time
		now           time.Time
		window, preld float64
		want          float64
	}{
		// 0.5 h preload of a 5 h window: 0.5/5*100 = 10.
		{"at the start: flat preload", ws, ws, 5, 0.5, 10},
		{"15 min in: still preload", ws, ws.Add(15 * time.Minute), 5, 0.5, 10},
		// 0.5 h elapsed <= 0.5 h: the boundary is still preload. (Both
		// branches give 10 here, so the flat rows before it are what pin
		// the preload down.)
		{"exactly 30 min in: preload (<=)", ws, ws.Add(30 * time.Minute), 5, 0.5, 10},
		// 1,801 s / 18,000 s * 100 = 10.005555...
		{"30 min 1 s in: linear", ws, ws.Add(30*time.Minute + time.Second), 5, 0.5, 1801.0 / 180},
		// 3,600 / 18,000 * 100 = 20.
		{"1 h in", ws, ws.Add(time.Hour), 5, 0.5, 20},
		// 9,000 / 18,000 * 100 = 50.
		{"2.5 h in", ws, ws.Add(150 * time.Minute), 5, 0.5, 50},
		{"at the end", ws, ws.Add(5 * time.Hour), 5, 0.5, 100},
		// elapsed clamps to 18,000 s: 100, never more.
		{"past the end clamps to 100", ws, ws.Add(7 * time.Hour), 5, 0.5, 100},
		// elapsed clamps to 0, and 0 h <= 0.5 h: preload.
		{"before the start with preload", ws, ws.Add(-time.Hour), 5, 0.5, 10},
		{"before the start without preload", ws, ws.Add(-time.Hour), 5, 0, 0},
		{"no preload at the start", ws, ws, 5, 0, 0},
		// 1,800 / 18,000 * 100 = 10 (the same figure the preload gives).
		{"no preload 30 min in", ws, ws.Add(30 * time.Minute), 5, 0, 10},
		// Weekends do not freeze it: Fri 22:00 -> Sat 01:00 = 3 h of a
		// 5 h window = 60.
		{"runs through the weekend", at(7, 22, 0, 0), at(8, 1, 0, 0), 5, 0.5, 60},
		// A 1 h preload of a 5 h window = 20 at 59 min.
		{"other preload", ws, ws.Add(59 * time.Minute), 5, 1, 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			near(t, "ContinuousAllowance", ContinuousAllowance(tt.start, tt.now, tt.window, tt.preld), tt.want)
		})
	}
}

func TestWeekdayAllowance(t *testing.T) {
	t.Parallel()
	mon := at(3, 0, 0, 0) // Monday 00:00: tw = 432,000 s = 120 h
	wed := at(5, 0, 0, 0) // Wednesday 00:00: tw also 120 h
	tests := []struct {
		name    string
		ws, now time.Time
		window  float64
		preload float64
		want    float64
	}{
		// 12 h / 120 h * 100 = 10 for the whole preload.
		{"preload at start", mon, mon, 168, 12, 10},
		{"preload 8 weekday hours in", mon, at(3, 8, 0, 0), 168, 12, 10},
		// e = 12 h <= 12 h: still preload (linear gives 10 here too).
		{"preload boundary 12 h (<=)", mon, at(3, 12, 0, 0), 168, 12, 10},
		// e = 43,201 s: 43,201 / 432,000 * 100 = 10.000231481...
		{"one second past the preload", mon, at(3, 12, 0, 1), 168, 12, 43201.0 / 4320},
		// 16 h / 120 h = 13.333...
		{"Monday 16:00 linear", mon, at(3, 16, 0, 0), 168, 12, 16.0 / 120 * 100},
		// A 24 h preload: 24/120*100 = 20 until 24 weekday hours.
		{"24 h preload", mon, at(3, 20, 0, 0), 168, 24, 20},
		{"24 h preload boundary", mon, at(4, 0, 0, 0), 168, 24, 20},
		// Before the start e = 0 <= 12: preload.
		{"before the start with preload", mon, mon.Add(-time.Hour), 168, 12, 10},
		{"before the start without preload", mon, mon.Add(-time.Hour), 168, 0, 0},
		{"at the start without preload", mon, mon, 168, 0, 0},
		// 1 h / 120 h * 100 = 0.8333...
		{"no preload 1 h in", mon, at(3, 1, 0, 0), 168, 0, 100.0 / 120},
		// Weekend freeze: from Wed 00:00, Wed+Thu+Fri = 72 h by Sat;
		// 72/120*100 = 60 all weekend.
		{"frozen Saturday noon", wed, at(8, 12, 0, 0), 168, 12, 60},
		{"frozen Sunday 23:59:59", wed, at(9, 23, 59, 59), 168, 12, 60},
		{"frozen at Friday midnight", wed, at(8, 0, 0, 0), 168, 12, 60},
		// Mon 01:00: 73 h / 120 h * 100 = 60.8333...
		{"thaws Monday 01:00", wed, at(10, 1, 0, 0), 168, 12, 73.0 / 120 * 100},
		{"window end", mon, at(10, 0, 0, 0), 168, 12, 100},
		// 200 h after Mon 00:00 is Tue 11-11 08:00: weekdays 120 h + Mon
		// 24 h + Tue 8 h = 152 h; 152/120*100 = 126.666... (not clamped).
		{"200 h past a Monday start exceeds 100", mon, mon.Add(200 * time.Hour), 168, 12, 152.0 / 120 * 100},
		// A 48 h window from Sat 00:00 has no weekday second: 100.
		{"window without weekdays", at(8, 0, 0, 0), at(8, 6, 0, 0), 48, 12, 100},
		// A 72 h window from Sat 00:00 holds Monday only (tw = 24 h):
		// preload 12/24*100 = 50.
		{"preload over a short window", at(8, 0, 0, 0), at(10, 6, 0, 0), 72, 12, 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			near(t, "WeekdayAllowance", WeekdayAllowance(tt.ws, tt.now, tt.window, tt.preload), tt.want)
		})
	}
}

func TestSafeAllowance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                string
		allowance, sb, want float64
	}{
		{"default 95 % of 50", 50, 95, 47.5},
		{"95 % of the 10 % preload", 10, 95, 9.5},
		{"100 % buffer is the allowance", 60, 100, 60},
		{"80 % of 100", 100, 80, 80},
		// 152/120*100 * 0.95 = 120.333...
		{"past-end allowance", 152.0 / 120 * 100, 95, 152.0 / 120 * 95},
		{"zero allowance", 0, 95, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			near(t, "SafeAllowance", SafeAllowance(tt.allowance, tt.sb), tt.want)
		})
	}
}
