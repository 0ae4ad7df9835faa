package testenv

import (
	"fmt"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Run hands back what the command wrote once it has ended, and its exit
// code; RunCombined the same in one string.
func TestRunReportsOutputAndExitCode(t *testing.T) {
	sh := "echo out; echo err >&2; exit 3"
	out, errOut, code := Run(t, exec.Command("sh", "-c", sh))
	if out != "out\n" || errOut != "err\n" || code != 3 {
		t.Errorf("Run: stdout=%q stderr=%q code=%d", out, errOut, code)
	}
	both, code := RunCombined(t, exec.Command("sh", "-c", sh))
	if both != "out\nerr\n" || code != 3 {
		t.Errorf("RunCombined: %q code=%d", both, code)
	}
}

// fatalRecorder is a testing.TB whose Fatal only records, so a test can
// see WaitFor fail.
type fatalRecorder struct {
	testing.TB
	msg string
}

func (f *fatalRecorder) Helper()           {}
func (f *fatalRecorder) Fatal(args ...any) { f.msg = args[0].(string) }

func TestWaitForFailsAfterItsDeadlineSayingWhy(t *testing.T) {
	r := &fatalRecorder{TB: t}
	n := 0
	WaitFor(r, 100*time.Millisecond, "n to reach 3", func() bool { n++; return n >= 3 })
	if r.msg != "" || n != 3 {
		t.Fatalf("a condition that comes: %q after %d looks", r.msg, n)
	}
	start := time.Now()
	WaitFor(r, 100*time.Millisecond, "never", func() bool { return false }, func() string { return "the log" })
	if time.Since(start) < 100*time.Millisecond || r.msg != "timed out after 100ms waiting for never\nthe log" {
		t.Fatalf("a condition that never comes: %q after %v", r.msg, time.Since(start))
	}
}

func TestEnvWithoutDropsNamesAndPrefixes(t *testing.T) {
	t.Setenv("WARDEN_A", "1")
	t.Setenv("WARDEN_B", "2")
	t.Setenv("KEEP_ME", "3")
	t.Setenv("KEEP_ME_TOO", "4")
	got := strings.Join(EnvWithout("WARDEN_", "KEEP_ME"), "\n")
	for _, gone := range []string{"WARDEN_A=", "WARDEN_B=", "KEEP_ME=3"} {
		if strings.Contains(got, gone) {
			t.Errorf("%s still there", gone)
		}
	}
	if !strings.Contains(got, "KEEP_ME_TOO=4") {
		t.Error("KEEP_ME_TOO was dropped with KEEP_ME")
	}
}

// errorRecorder is a testing.TB that records Error and Errorf.
type errorRecorder struct {
	testing.TB
	errs []string
}

func (r *errorRecorder) Helper()           {}
func (r *errorRecorder) Error(args ...any) { r.errs = append(r.errs, fmt.Sprint(args...)) }
func (r *errorRecorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// Every call runs, side by side; problems fail the test, ten shown, then
// their count.
func TestConcurrentlyRunsEveryCallAndReportsProblems(t *testing.T) {
	r := &errorRecorder{TB: t}
	var calls atomic.Int64
	Concurrently(r, 4, 25, func(w, i int) string {
		calls.Add(1)
		if i%5 == 0 {
			return fmt.Sprintf("bad %d", i)
		}
		return ""
	})
	if calls.Load() != 100 {
		t.Errorf("%d calls, want 100", calls.Load())
	}
	if len(r.errs) != 11 || r.errs[10] != "20 of 100 calls had a problem" || !strings.Contains(r.errs[0], ": bad ") {
		t.Errorf("reported %q", r.errs)
	}
	r.errs = nil
	Concurrently(r, 2, 3, func(w, i int) string { return "" })
	if len(r.errs) != 0 {
		t.Errorf("no problems, yet reported %q", r.errs)
	}
}
