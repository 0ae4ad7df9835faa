package testenv

import (
	"os/exec"
	"strings"
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
