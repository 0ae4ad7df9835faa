package ship

import (
	"context"
	"errors"
	"testing"
	"time"
)

// Retries after failures wait MinBackoff doubling up to MaxBackoff, ±20 %;
// once the failures in a row have lasted LongOutage, up to LongBackoff: a
// keeper that stays for a backlog through a long outage knocks about once a
// minute, never in a tight loop and never less often than that.
func TestRetryCadenceIsBounded(t *testing.T) {
	sh, err := New(Options{Spool: newSpool(t), Dial: func(context.Context) (Target, error) {
		return nil, errors.New("connection refused")
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sh.Drain(context.Background()); err == nil {
		t.Fatal("a store that cannot be opened shipped")
	}
	since := sh.Status().ErrorSince
	if since.IsZero() {
		t.Fatal("no failure noted")
	}
	o := sh.o
	if o.MaxBackoff != 5*time.Second || o.LongOutage != 5*time.Minute || o.LongBackoff != time.Minute {
		t.Fatalf("defaults: max %v, long outage %v, long backoff %v", o.MaxBackoff, o.LongOutage, o.LongBackoff)
	}
	within := func(d, lo, hi time.Duration) bool { return d >= lo && d <= hi }
	for _, c := range []struct {
		after    time.Duration
		failures int
		lo, hi   time.Duration
	}{
		{0, 1, 400 * time.Millisecond, 600 * time.Millisecond},
		{0, 3, 1600 * time.Millisecond, 2400 * time.Millisecond},
		{4 * time.Minute, 400, 4 * time.Second, 6 * time.Second},
		{5 * time.Minute, 400, 48 * time.Second, 72 * time.Second},
		{10 * time.Hour, 1 << 20, 48 * time.Second, 72 * time.Second},
	} {
		for range 20 { // the jitter is random: every draw must fit
			if d := backoff(o.MinBackoff, sh.maxBackoff(since.Add(c.after)), c.failures); !within(d, c.lo, c.hi) {
				t.Fatalf("%v into the outage, failure %d: waits %v, want %v–%v", c.after, c.failures, d, c.lo, c.hi)
			}
		}
	}
	// Back to the short cadence once a pass got through.
	sh.note(context.Background(), 0, nil)
	if m := sh.maxBackoff(since.Add(time.Hour)); m != o.MaxBackoff {
		t.Fatalf("after a recovery the longest wait is %v, want %v", m, o.MaxBackoff)
	}
}
