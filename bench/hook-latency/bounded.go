package main

import (
	"fmt"
	"os/exec"
	"time"
)

// hookLimit is how long one measured process may take before the run
// stops: a hook is a few milliseconds, so one that takes seconds is not
// noise but a hook that sleeps (pacing throttling on figures it should not
// have) or hangs, and waiting on it would stall `make test` for minutes.
const hookLimit = 5 * time.Second

// runBounded runs cmd and returns its wall time, start included, as
// cmd.Run would be timed; past hookLimit it kills it and says why. Arming
// the timer costs a fraction of a microsecond, and nothing while the
// process runs.
func runBounded(cmd *exec.Cmd) (time.Duration, error) {
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	killed := make(chan struct{})
	timer := time.AfterFunc(hookLimit, func() { close(killed); cmd.Process.Kill() })
	err := cmd.Wait()
	took := time.Since(start)
	timer.Stop()
	select {
	case <-killed:
		return took, fmt.Errorf("%s %v took over %v and was killed: a hook must answer in milliseconds; one that sleeps is pacing on figures (the bench's home holds only its own, which never throttle) or a hang", cmd.Path, cmd.Args[1:], hookLimit)
	default:
	}
	return took, err
}
