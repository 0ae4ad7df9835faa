package pipeline

import "testing"

// TestOnceIsPerCall: a value is computed once for a call, however many
// handlers ask, and never handed to another call (a resident server runs
// many callers at once).
func TestOnceIsPerCall(t *testing.T) {
	runs := 0
	count := func() int { runs++; return runs }
	a, b := &Call{}, &Call{}
	if Once(a, "k", count) != 1 || Once(a, "k", count) != 1 {
		t.Fatal("a call computed its value twice")
	}
	if Once(b, "k", count) != 2 {
		t.Fatal("a second call got the first call's value")
	}
	if got := Once(a, "other", func() string { return "x" }); got != "x" {
		t.Fatalf("another key: %q", got)
	}
	if runs != 2 {
		t.Fatalf("%d computations, want 2", runs)
	}
}
