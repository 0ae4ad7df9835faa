package pace

import "time"

// IsWeekend reports whether t falls on a Saturday or Sunday in t's own
// location (the reference's is_weekend; Decide passes UTC times).
func IsWeekend(t time.Time) bool {
	wd := t.Weekday()
	return wd == time.Saturday || wd == time.Sunday
}

// CountWeekdaySeconds counts the Monday–Friday seconds in [start, end)
// (pacing.md, "count_weekday_seconds", L30–73).
//
// It walks day by day from start in start's UTC offset: each segment runs
// from the current instant to the next midnight of that offset or to end,
// whichever comes first, and counts only when its first instant is a
// weekday. Each segment's length is truncated to whole seconds on its own
// (the reference's int() per segment, L68), so fractional starts and ends
// lose their fractions separately. start >= end gives 0.
func CountWeekdaySeconds(start, end time.Time) int64 {
	if !start.Before(end) {
		return 0
	}
	_, offset := start.Zone()
	loc := time.FixedZone("", offset)
	var total int64
	for cur := start.In(loc); cur.Before(end); {
		y, m, d := cur.Date()
		// next_day: 23:59:59 of cur's date + 1 s, i.e. the next midnight.
		segEnd := time.Date(y, m, d, 23, 59, 59, 0, loc).Add(time.Second)
		if end.Before(segEnd) {
			segEnd = end.In(loc)
		}
		if !IsWeekend(cur) {
			total += int64(segEnd.Sub(cur) / time.Second)
		}
		cur = segEnd
	}
	return total
}
