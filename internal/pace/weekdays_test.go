package pace

import (
	"testing"
	"time"
)

func TestIsWeekend(t *testing.T) {
	t.Parallel()
	est := time.FixedZone("EST", -5*3600)
	tests := []struct {
		name string
		t    time.Time
		want bool
	}{
		{"Friday 23:59:59", at(7, 23, 59, 59), false},
		{"Saturday 00:00", at(8, 0, 0, 0), true},
		{"Sunday 23:59:59", at(9, 23, 59, 59), true},
		{"Monday 00:00", at(10, 0, 0, 0), false},
		// Sat 03:00 UTC is still Friday 22:00 in EST: the day is read in t's
		// own location.
		{"Friday evening in EST, Saturday in UTC", at(8, 3, 0, 0).In(est), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := IsWeekend(tt.t); got != tt.want {
				t.Errorf("IsWeekend(%v) = %v, want %v", tt.t, got, tt.want)
			}
		})
	}
}

func TestCountWeekdaySeconds(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	newYork, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	est := time.FixedZone("EST", -5*3600)
	msk := time.FixedZone("MSK", 3*3600)
	tests := []struct {
		name       string
		start, end time.Time
		want       int64
	}{
		{"start equals end", at(3, 9, 0, 0), at(3, 9, 0, 0), 0},
		{"start after end", at(4, 9, 0, 0), at(3, 9, 0, 0), 0},
		// 09:00 -> 17:00 = 8 h = 28,800 s.
		{"Monday working day", at(3, 9, 0, 0), at(3, 17, 0, 0), 28800},
		// Fri 20:00 -> Sat 00:00 = 4 h counted; Sat, Sun skipped;
		// Mon 00:00 -> 04:00 = 4 h. 8 h = 28,800 s.
		{"across a weekend", at(7, 20, 0, 0), at(10, 4, 0, 0), 28800},
		{"Saturday to Sunday only", at(8, 10, 0, 0), at(9, 22, 0, 0), 0},
		// Fri 23:00 -> Sat 00:00 = 1 h; the Saturday hour is skipped.
		{"Friday 23:00 to Saturday 01:00", at(7, 23, 0, 0), at(8, 1, 0, 0), 3600},
		// Sun 23:00 -> Mon 00:00 skipped; Mon 00:00 -> 00:30 = 1,800 s.
		{"Sunday 23:00 to Monday 00:30", at(9, 23, 0, 0), at(10, 0, 30, 0), 1800},
		// Mon..Fri = 5 x 86,400 = 432,000 s (120 h).
		{"168 h from Monday 00:00", at(3, 0, 0, 0), at(10, 0, 0, 0), 432000},
		// Wed 13:37 -> Thu 00:00 = 10h23m = 37,380; Thu, Fri = 172,800;
		// Mon, Tue = 172,800; Wed 00:00 -> 13:37 = 49,020. Total 432,000.
		{"168 h from Wednesday 13:37", at(5, 13, 37, 0), at(12, 13, 37, 0), 432000},
		// Sat, Sun = 0; Mon..Fri = 432,000.
		{"168 h from Saturday 00:00", at(8, 0, 0, 0), at(15, 0, 0, 0), 432000},
		// Per-segment truncation: Mon 23:59:59.5 -> Tue 00:00 = 0.5 s -> 0;
		// Tue 00:00 -> 00:00:01.7 = 1.7 s -> 1. Total 1 (a single
		// truncation of the 2.2 s sum would give 2).
		{"sub-second segments truncate separately",
			at(3, 23, 59, 59).Add(500 * ms), at(4, 0, 0, 1).Add(700 * ms), 1},
		// 168 h from Wed 13:37:00.25: first segment 37,379.75 -> 37,379;
		// full days 345,600; last segment 49,020.25 -> 49,020.
		// 37,379 + 345,600 + 49,020 = 431,999: one second short of 120 h.
		{"168 h from a fractional start loses one second",
			at(5, 13, 37, 0).Add(250 * ms), at(12, 13, 37, 0).Add(250 * ms), 431999},
		// Within one segment: 0.9 s -> 0.
		{"less than a second", at(3, 9, 0, 0), at(3, 9, 0, 0).Add(900 * ms), 0},
		// start Fri 22:00 EST (= Sat 03:00 UTC) to Sat 02:00 EST: days are
		// cut at EST midnights, so Fri 22:00 -> Sat 00:00 EST = 7,200 s count.
		// Counted in UTC the same span (Sat 03:00 -> 07:00) would be 0.
		{"days follow the start's offset",
			time.Date(2025, 11, 7, 22, 0, 0, 0, est), time.Date(2025, 11, 8, 2, 0, 0, 0, est), 7200},
		// end written in +03:00 is Sat 00:30 UTC: only the instant matters.
		// Fri 23:00 -> Sat 00:00 UTC = 3,600 s.
		{"end's offset is irrelevant",
			at(7, 23, 0, 0), time.Date(2025, 11, 8, 3, 30, 0, 0, msk), 3600},
		// Mon 00:00 -> Wed 00:00 of the next week = 5 + 2 weekdays = 7 x 86,400.
		{"nine days", at(3, 0, 0, 0), at(12, 0, 0, 0), 604800},
		// Across the night New York's clocks go forward (Sun 8 Mar 2026,
		// 02:00 EST -> 03:00 EDT): days are cut at the start's offset
		// (EST) midnights throughout, so Mon 04:00 EDT is 03:00 EST.
		// Fri 20:00 -> Sat 00:00 = 4 h; Mon 00:00 -> 03:00 EST = 3 h.
		{"across DST starting, in the start's offset",
			time.Date(2026, 3, 6, 20, 0, 0, 0, newYork), time.Date(2026, 3, 9, 4, 0, 0, 0, newYork), 25200},
		// Back in Berlin (Sun 25 Oct 2026, 03:00 CEST -> 02:00 CET): Fri
		// 22:00 -> Sat 00:00 CEST = 2 h; Mon 00:00 CEST (Sun 23:00 CET) ->
		// Mon 01:00 CET = 2 h.
		{"across DST ending, in the start's offset",
			time.Date(2026, 10, 23, 22, 0, 0, 0, berlin), time.Date(2026, 10, 26, 1, 0, 0, 0, berlin), 14400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := CountWeekdaySeconds(tt.start, tt.end); got != tt.want {
				t.Errorf("CountWeekdaySeconds(%v, %v) = %d, want %d", tt.start, tt.end, got, tt.want)
			}
		})
	}
}

// Any 168-hour span starting on a whole second holds exactly 432,000
// weekday seconds (pacing.md); checked at every hour of one week.
func TestCountWeekdaySecondsAnyWeek(t *testing.T) {
	t.Parallel()
	for h := 0; h < 168; h++ {
		start := at(3, 0, 0, 0).Add(time.Duration(h)*time.Hour + 17*time.Second)
		if got := CountWeekdaySeconds(start, start.Add(168*time.Hour)); got != 432000 {
			t.Errorf("168 h from %v = %d, want 432000", start, got)
		}
	}
}
