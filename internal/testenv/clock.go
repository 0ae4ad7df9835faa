package testenv

import (
	"fmt"
	"os"
	"sync"
	"time"
)

// NowEnv pins the instant tests call now, as faketime pins a process's
// clock: WARDEN_TEST_NOW=2026-11-28T10:00:00Z (RFC 3339) makes Now start
// there and tick on from it. `make test`'s clock check runs the packages
// whose code decides by the calendar (pacing's weekday allowance, daily
// usage, the charts) once on a Saturday and once on a Monday with it, in
// time zones other than UTC, so no test passes only on the day it was
// written. Unset, Now is the wall clock.
const NowEnv = "WARDEN_TEST_NOW"

var (
	clockStart = time.Now()
	pinned     = sync.OnceValues(func() (time.Time, error) {
		v := os.Getenv(NowEnv)
		if v == "" {
			return time.Time{}, nil
		}
		at, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return time.Time{}, fmt.Errorf("%s=%q: %v (want RFC 3339, e.g. 2026-11-28T10:00:00Z)", NowEnv, v, err)
		}
		return at, nil
	})
)

// Now is the instant a test hands the code under test as now (the code
// takes a clock: an Options.Now, a Call.Now, a now argument): the wall
// clock, or WARDEN_TEST_NOW's instant plus the time since the process
// started. Durations a test waits for (deadlines, timeouts) stay on
// time.Now. A malformed WARDEN_TEST_NOW panics: every test would
// otherwise run on the wrong day without saying so.
func Now() time.Time {
	at, err := pinned()
	if err != nil {
		panic(err)
	}
	if at.IsZero() {
		return time.Now()
	}
	return at.Add(time.Since(clockStart))
}
