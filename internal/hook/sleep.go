package hook

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// sleepFor waits d, at most limit, and returns early when ctx ends (the
// caller of a resident server went away: Claude Code's SIGTERM ended its
// client) or, with signals, when this process gets SIGTERM or SIGINT (a
// hook in its own process): a throttled hook must never outlive its
// welcome. It returns how long it actually slept.
func sleepFor(ctx context.Context, d, limit time.Duration, signals bool) time.Duration {
	if d > limit {
		d = limit
	}
	if d <= 0 {
		return 0
	}
	start := time.Now()
	var sig chan os.Signal
	if signals {
		sig = make(chan os.Signal, 1)
		signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
		defer signal.Stop(sig)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-sig:
	case <-ctx.Done():
	}
	return time.Since(start)
}
