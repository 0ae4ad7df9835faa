package orchestrator

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
	"github.com/warden-dev/warden/internal/task"
)

// A daemon that died left tasks claimed, running and paused. On start,
// Reconcile kills the stray agent still running (it carries the task's id
// in its environment), queues the tasks again, fails the one that used
// its attempts, leaves an unrelated process with a recycled-looking pid
// alone, and the next step runs the queued ones.
func TestReconcileAfterADeadDaemon(t *testing.T) {
	r := newRig(t, 4)
	ctx := context.Background()
	for _, id := range []string{"run", "claimed", "paused", "worn"} {
		r.add(id, "quick "+id, 0)
	}
	// Claim all four as the dead daemon did; "worn" three times.
	for i := 0; i < 4; i++ {
		if _, err := r.st.ClaimNext(ctx, "dead:1", "", "slot free", r.clock.Now()); err != nil {
			t.Fatal(err)
		}
	}
	sqlitetest.Exec(t, r.st.Path(), "UPDATE tasks SET attempts = 3 WHERE id = 'worn'")
	// The dead daemon's agent for "run", still alive (as after SIGKILL
	// without Pdeathsig), and a stranger whose pid "paused" names.
	stray := exec.Command("sleep", "60")
	stray.Env = append(os.Environ(), task.EnvTaskID+"=run")
	stray.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stranger := exec.Command("sleep", "60")
	for _, c := range []*exec.Cmd{stray, stranger} {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	defer stranger.Process.Kill()
	ref := func(id string, c *exec.Cmd, st task.Status) {
		s := "pid:" + strconv.Itoa(c.Process.Pid)
		if _, err := r.st.UpdateTask(ctx, id, task.Change{To: st, AgentRef: &s, Reason: "started"}); err != nil {
			t.Fatal(err)
		}
	}
	ref("run", stray, task.Running)
	ref("paused", stranger, task.Paused)
	ref("worn", stranger, task.Running)
	r.st.SetSetting(ctx, task.HoldSetting, `{"until":"2026-11-25T13:00:00Z"}`)

	if err := r.sched.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- stray.Wait() }()
	select {
	case <-waited:
	case <-time.After(5 * time.Second):
		t.Fatal("the stray agent of task run was not killed")
	}
	if syscall.Kill(stranger.Process.Pid, 0) != nil {
		t.Error("a process without the task's id was killed")
	}
	must(t, r.statuses("run", "claimed", "paused", "worn") == "run=queued claimed=queued paused=queued worn=failed", "after reconcile: %s", r.statuses("run", "claimed", "paused", "worn"))
	must(t, has(r.decisions("run"), "requeue: daemon restarted while the task was running (attempt 1 of 3); its agent is gone: queued again"), "run: %q", r.decisions("run"))
	worn, _ := r.st.Task(ctx, "worn")
	must(t, strings.Contains(worn.Error, "lost 3 times"), "worn: %+v", worn)
	hold, _, _ := r.st.Setting(ctx, task.HoldSetting)
	must(t, hold == "", "a dead daemon's hold survived: %q", hold)

	r.stepUntil("the requeued tasks ran", func() bool {
		return r.status("run") == task.Done && r.status("claimed") == task.Done && r.status("paused") == task.Done
	})
	run, _ := r.st.Task(ctx, "run")
	must(t, run.Attempts == 2, "run attempts %d, want 2", run.Attempts)
}

// blockingQuota stalls the scheduler's first step, as a store or runner
// that hangs would.
type blockingQuota struct {
	inner   QuotaSource
	calls   atomic.Int64
	release chan struct{}
}

func (b *blockingQuota) Quota(ctx context.Context, now time.Time) (Quota, error) {
	if b.calls.Add(1) == 1 {
		<-b.release
	}
	return b.inner.Quota(ctx, now)
}

// The watchdog restarts a loop that made no step for StallAfter, records
// it, and the new loop runs the queue.
func TestWatchdogRestartsAStalledLoop(t *testing.T) {
	r := newRig(t, 2)
	bq := &blockingQuota{inner: r.sched.o.Quota, release: make(chan struct{})}
	defer close(bq.release)
	r.sched.o.Quota = bq
	r.sched.o.StallAfter, r.sched.o.Interval = 300*time.Millisecond, 20*time.Millisecond
	r.add("w", "quick", 0)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.sched.Run(ctx) }()
	deadline := time.Now().Add(15 * time.Second)
	for r.status("w") != task.Done {
		if time.Now().After(deadline) {
			t.Fatalf("task never ran; status %+v", r.sched.Status())
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != context.Canceled {
		t.Errorf("Run returned %v", err)
	}
	must(t, r.sched.Status().Restarts >= 1, "restarts %d", r.sched.Status().Restarts)
	must(t, has(r.decisions(""), "watchdog: the scheduling loop made no step for 300ms; restarted it (restart 1)"), "decisions %q", r.decisions(""))
}
