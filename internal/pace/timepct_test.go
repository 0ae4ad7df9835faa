package pace

import (
	"testing"
	"time"
)

func TestTimePercent(t *testing.T) {
	t.Parallel()
	now := at(4, 12, 0, 0)
	in := func(d time.Duration) *time.Time { return ptr(now.Add(d)) }
	tests := []struct {
		name   string
		reset  *time.Time
		window float64
		want   float64
	}{
		{"no reset time: inactive", nil, 5, 0},
		// remaining = window: not started yet.
		{"resets exactly one window away", in(5 * time.Hour), 5, 0},
		{"resets more than a window away", in(6 * time.Hour), 5, 0},
		// (18,000 - 17,999) / 18,000 * 100 = 0.00555...
		{"one second elapsed", in(5*time.Hour - time.Second), 5, 100.0 / 18000},
		// (18,000 - 9,000) / 18,000 * 100 = 50.
		{"half way", in(150 * time.Minute), 5, 50},
		// (18,000 - 1) / 18,000 * 100 = 99.99444...
		{"one second left", in(time.Second), 5, 17999.0 / 180},
		// remaining = 0 <= 0 and not < -300: 100.
		{"resets now", in(0), 5, 100},
		{"reset 100 s ago: within grace", in(-100 * time.Second), 5, 100},
		// -300 is not < -300: still 100.
		{"reset exactly 300 s ago: grace boundary", in(-300 * time.Second), 5, 100},
		{"reset 300.5 s ago: stale", in(-300*time.Second - 500*time.Millisecond), 5, -1},
		{"reset 301 s ago: stale", in(-301 * time.Second), 5, -1},
		{"reset a day ago: stale", in(-24 * time.Hour), 168, -1},
		// 168 h window, 84 h left: (604,800 - 302,400) / 604,800 * 100 = 50.
		{"7-day half way", in(84 * time.Hour), 168, 50},
		// 168 h window, 126 h left: 42/168*100 = 25 (calendar time, weekends
		// included).
		{"7-day quarter", in(126 * time.Hour), 168, 25},
		{"7-day not started", in(168 * time.Hour), 168, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			near(t, "TimePercent", TimePercent(tt.reset, now, tt.window), tt.want)
		})
	}
}
