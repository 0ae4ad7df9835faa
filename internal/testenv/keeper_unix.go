//go:build unix

package testenv

import (
	"syscall"
	"testing"
)

// Stop stops the keeper (SIGSTOP) and returns once it has stopped. The
// signal alone does not do it: kill(2) returns once the signal is queued,
// and the process stops only when each of its threads has taken it up —
// on Linux one thread must first get a CPU, then it stops the others. Until
// then the keeper's other threads go on serving: on a loaded 2-core
// machine 166 of 200 stops were still incomplete when kill returned (5 ms
// to complete at the median, 34 ms at worst), long enough for the keeper
// to take a request sent meanwhile. The keeper is this test's child, so
// the kernel reports its stop to it: wait4 with WUNTRACED returns then.
// (The goroutine that reaps it waits for its exit only, so it does not
// take the report.)
func (k *Keeper) Stop(t testing.TB) {
	t.Helper()
	if err := k.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	for {
		var ws syscall.WaitStatus
		_, err := syscall.Wait4(k.Process.Pid, &ws, syscall.WUNTRACED, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			t.Fatalf("waiting for the keeper to stop: %v", err)
		}
		if !ws.Stopped() {
			t.Fatalf("the keeper did not stop: it ended (%v)", ws)
		}
		return
	}
}
