package hook

import (
	"os"
	"os/signal"
	"syscall"
	"time"
)

// sleepFor waits d, at most limit, and returns early when Claude Code (or
// the user) sends SIGTERM or SIGINT: a throttled hook must never outlive its
// welcome. It returns how long it actually slept.
func sleepFor(d, limit time.Duration) time.Duration {
	if d > limit {
		d = limit
	}
	if d <= 0 {
		return 0
	}
	start := time.Now()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	defer signal.Stop(sig)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-sig:
	}
	return time.Since(start)
}
