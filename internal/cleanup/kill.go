package cleanup

import (
	"context"
	"os"
	"syscall"
	"time"
)

// Kill ends the orphans: SIGTERM first, SIGKILL for those still running at
// grace, never past ctx. A pid that now belongs to another process (it
// exited and the number was reused) is left alone. It returns the pids that
// are gone afterwards and those that could not be ended.
func Kill(ctx context.Context, orphans []Orphan, grace time.Duration) (killed, failed []int) {
	var pending []Orphan
	for _, o := range orphans {
		if !same(o.Proc) {
			continue // already gone, or the pid was reused
		}
		if err := signal(o.PID, syscall.SIGTERM); err != nil {
			failed = append(failed, o.PID)
			continue
		}
		pending = append(pending, o)
	}
	deadline := time.Now().Add(grace)
	for len(pending) > 0 {
		var still []Orphan
		for _, o := range pending {
			if same(o.Proc) {
				still = append(still, o)
			} else {
				killed = append(killed, o.PID)
			}
		}
		pending = still
		if len(pending) == 0 || ctx.Err() != nil {
			break
		}
		if time.Now().After(deadline) {
			for _, o := range pending {
				_ = signal(o.PID, syscall.SIGKILL)
			}
			deadline = time.Now().Add(time.Hour) // one SIGKILL; then wait for ctx
		}
		select {
		case <-ctx.Done():
		case <-time.After(50 * time.Millisecond):
		}
	}
	for _, o := range pending {
		failed = append(failed, o.PID)
	}
	return killed, failed
}

func signal(pid int, sig os.Signal) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Signal(sig)
}
