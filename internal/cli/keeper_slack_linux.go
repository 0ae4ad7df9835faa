package cli

import (
	"os"
	"runtime"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// keeperTimerSlack is how late the kernel may wake the keeper's threads
// from a timed sleep, so it can batch the wake-ups (Linux timer slack;
// the default is 50 µs).
//
// Why: while the keeper serves a hook its P is busy, and the Go runtime's
// monitor thread (sysmon) then sleeps 20 µs at a time between looks at
// it — 4–5 wake-ups and twice as many context switches per hook on a
// 2-CPU VM, each taking a CPU from the hook or the callers' processes.
// With 1 ms of slack it wakes ~1.5 times per hook. Measured over 300
// hooks (perf, syscall tracepoints on the keeper): nanosleep 4.2 -> 1.5,
// context switches 9.3 -> 5.3, keeper CPU ~790 -> ~680 µs per hook. No
// timer of the keeper needs better than a millisecond: the shortest are
// the 50 ms queue wait and the 100 ms accept grace.
const keeperTimerSlack = time.Millisecond

// slackEnv marks the keeper as re-executed with the slack set: once is
// enough, whatever the kernel says afterwards.
const slackEnv = "WARDEN_KEEPER_SLACK"

// withTimerSlack gives every thread of this process keeperTimerSlack.
// Timer slack is per thread and inherited by the threads a thread
// creates, and the runtime starts its monitor thread before any of
// warden's code runs, so the only way to reach it is to set the slack on
// this thread and exec this same binary again (/proc/self/exe: the file
// this process runs, even if it was replaced since): the new image's
// threads all descend from this one, and exec keeps the slack and the
// pid. It runs before the keeper takes its lock or opens anything, and
// on any failure the keeper simply runs on without it.
func withTimerSlack() {
	if os.Getenv(slackEnv) != "" {
		os.Unsetenv(slackEnv) // the keeper's own children must not see it
		return
	}
	cur, err := unix.PrctlRetInt(unix.PR_GET_TIMERSLACK, 0, 0, 0, 0)
	if err != nil || cur >= int(keeperTimerSlack) {
		return
	}
	runtime.LockOSThread() // the slack is this thread's, and exec runs on it
	defer runtime.UnlockOSThread()
	if unix.Prctl(unix.PR_SET_TIMERSLACK, uintptr(keeperTimerSlack), 0, 0, 0) != nil {
		return
	}
	_ = syscall.Exec("/proc/self/exe", os.Args, append(os.Environ(), slackEnv+"=1"))
	// Still here: exec failed. Run on with the default slack on this
	// thread too (0 restores it).
	_ = unix.Prctl(unix.PR_SET_TIMERSLACK, 0, 0, 0, 0)
}
