package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestKeeperRunsWithTimerSlack: withTimerSlack execs the running binary
// again (here this test binary, as the keeper execs warden-core) with the
// slack set, and then every thread of the new image has it — the Go
// runtime's monitor thread among them — and the marker that stops a
// second exec is gone from the environment the keeper's children get.
func TestKeeperRunsWithTimerSlack(t *testing.T) {
	if os.Getenv("WARDEN_TEST_SLACK_CHILD") != "" {
		withTimerSlack() // execs this test again; in the new image, a no-op
		fmt.Printf("marker=%q\n", os.Getenv(slackEnv))
		tasks, _ := filepath.Glob("/proc/self/task/*")
		for _, task := range tasks {
			b, err := os.ReadFile("/proc/" + filepath.Base(task) + "/timerslack_ns")
			if err != nil {
				fmt.Printf("err=%v\n", err)
				continue
			}
			fmt.Printf("slack=%s\n", strings.TrimSpace(string(b)))
		}
		return
	}
	cmd := exec.Command("/proc/self/exe", "-test.run=^TestKeeperRunsWithTimerSlack$", "-test.v")
	cmd.Env = append(os.Environ(), "WARDEN_TEST_SLACK_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	threads := 0
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(line, "err="):
			t.Errorf("reading a thread's timer slack: %s", line)
		case strings.HasPrefix(line, "marker="):
			if line != `marker=""` {
				t.Errorf("the re-exec marker is still set: %s", line)
			}
		case strings.HasPrefix(line, "slack="):
			threads++
			if n, _ := strconv.Atoi(strings.TrimPrefix(line, "slack=")); n != int(keeperTimerSlack) {
				t.Errorf("a thread has %d ns of timer slack, want %d", n, keeperTimerSlack)
			}
		}
	}
	if threads < 2 { // the main thread and the runtime's monitor at least
		t.Fatalf("%d threads reported, want every thread of the process:\n%s", threads, out)
	}
}
