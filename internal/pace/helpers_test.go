package pace

import (
	"math"
	"strings"
	"testing"
	"time"
)

// The calendar the tests use (all UTC unless a case says otherwise):
//
//	Mon 2025-11-03  Tue 04  Wed 05  Thu 06  Fri 07  Sat 08  Sun 09
//	Mon 2025-11-10  Tue 11  Wed 12
func at(day, hour, minute, sec int) time.Time {
	return time.Date(2025, 11, day, hour, minute, sec, 0, time.UTC)
}

func ptr(t time.Time) *time.Time { return &t }

// near compares floats to 1e-9 points: the expectations are worked out by
// hand, not copied from the implementation's order of operations.
func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-9 {
		t.Errorf("%s = %.12g, want %.12g", what, got, want)
	}
}

// wantAll fails t for each of wants that text does not contain; what names
// the text in the message.
func wantAll(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}
