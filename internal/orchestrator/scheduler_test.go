package orchestrator

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/task"
)

// Starts up to max_agents, in priority order; a finished agent's slot goes
// to the next task; every start is recorded with its reason; a task whose
// agent fails is failed with the agent's words; output of -p json is the
// result.
func TestStartsUpToMaxAgents(t *testing.T) {
	r := newRig(t, 2)
	r.figures(20, 3*time.Hour, 30, 4*24*time.Hour)
	r.add("t1", "wait one", 0)
	r.add("t2", "wait two", 5)
	r.add("t3", "wait three", 0)
	r.add("t4", "fail four", -1)
	r.step()
	must(t, r.statuses("t1", "t2", "t3", "t4") == "t1=running t2=running t3=queued t4=queued", "after the first step: %s", r.statuses("t1", "t2", "t3", "t4"))
	if ds := r.decisions("t2"); len(ds) != 1 || !strings.Contains(ds[0], "start: slot free (0 of 2 running); pacing allows new work: 5-hour 20.0% of safe") {
		t.Errorf("t2's decisions: %q", ds)
	}
	r.step() // nothing changes while both run
	if ws := r.decisions(""); !has(ws, "wait: 2 queued: all 2 agent slots busy (serve.max_agents)") {
		t.Errorf("queue-wide decisions: %q", ws)
	}
	r.releaseTask("t2")
	r.stepUntil("t2 done, t3 started", func() bool { return r.status("t2") == task.Done && r.status("t3") == task.Running })
	t2, _ := r.st.Task(context.Background(), "t2")
	must(t, t2.Result == "did: wait two" && t2.FinishedAt != nil && strings.HasPrefix(t2.AgentRef, "pid:"), "t2: %+v", t2)
	r.releaseTask("t1")
	r.releaseTask("t3")
	r.stepUntil("all ended", func() bool { return r.status("t4").Final() && r.status("t3").Final() && r.status("t1").Final() })
	t4, _ := r.st.Task(context.Background(), "t4")
	must(t, t4.Status == task.Failed && strings.Contains(t4.Error, "exit status 3: model overloaded"), "t4: %+v", t4)
	if ds := r.decisions("t4"); !has(ds, "fail: the agent failed: claude exit status 3: model overloaded") {
		t.Errorf("t4 decisions %q", ds)
	}
	// The agent ran in the project directory, tagged with its task, its
	// prompt on stdin.
	log, _ := os.ReadFile(r.log)
	must(t, strings.Contains(string(log), "t2 "+r.project+" -p --output-format json <wait two"), "claude log:\n%s", log)
}

// With the 5-hour window at 96 %, nothing starts, running agents are told
// to pause (the hold setting their hooks read, status paused), and work
// resumes once the window has reset.
func TestHoldsWhenCriticalAndResumesAtReset(t *testing.T) {
	r := newRig(t, 4)
	r.figures(20, 2*time.Hour, 30, 4*24*time.Hour)
	r.add("run", "wait", 0)
	r.step()
	must(t, r.status("run") == task.Running, "run: %s", r.status("run"))

	r.clock.Advance(10 * time.Minute)
	r.figures(96, 110*time.Minute, 30, 4*24*time.Hour)
	r.add("q1", "wait q1", 0)
	r.step()
	must(t, r.statuses("run", "q1") == "run=paused q1=queued", "under critical quota: %s", r.statuses("run", "q1"))
	hold, ok, _ := r.st.Setting(context.Background(), task.HoldSetting)
	must(t, ok && strings.Contains(hold, `"until":"2026-11-25T14:00:00Z"`) && strings.Contains(hold, "5-hour window at 96.0% (≥ 95%)"), "hold setting %q", hold)
	qw := r.decisions("")
	must(t, has(qw, "hold: quota critical, starting nothing new and pausing running agents: 5-hour window at 96.0% (≥ 95%); resumes by the reset at 2026-11-25T14:00:00Z"), "decisions %q", qw)
	must(t, has(r.decisions("run"), "pause: 5-hour window at 96.0%"), "run's decisions %q", r.decisions("run"))
	// Still held a minute before the reset; one hold decision, not one per step.
	r.clock.Set(time.Date(2026, 11, 25, 13, 59, 0, 0, time.UTC))
	r.step()
	must(t, r.status("q1") == task.Queued, "q1 started before the reset")
	n := 0
	for _, d := range r.decisions("") {
		if strings.HasPrefix(d, "hold:") {
			n++
		}
	}
	must(t, n == 1, "%d hold decisions", n)

	// At the reset the stored figures are stale: the window is over.
	r.clock.Set(time.Date(2026, 11, 25, 14, 0, 1, 0, time.UTC))
	r.step()
	must(t, r.statuses("run", "q1") == "run=running q1=running", "after the reset: %s", r.statuses("run", "q1"))
	hold, _, _ = r.st.Setting(context.Background(), task.HoldSetting)
	must(t, hold == "", "hold still set: %q", hold)
	must(t, has(r.decisions(""), "resume: quota no longer critical"), "decisions %q", r.decisions(""))
	must(t, has(r.decisions("q1"), "start: slot free (1 of 4 running)"), "q1 decisions %q", r.decisions("q1"))
	r.releaseTask("run")
	r.releaseTask("q1")
	r.stepUntil("both done", func() bool { return r.status("run") == task.Done && r.status("q1") == task.Done })
}

// Over the safe allowance (below 95 %) is critical too; the reason names
// the allowance.
func TestHoldsOverSafeAllowance(t *testing.T) {
	r := newRig(t, 4)
	// 7-day window 60 % used with 4 of its 5 weekdays still to go.
	r.figures(10, 4*time.Hour, 60, 4*24*time.Hour)
	r.add("q", "wait", 0)
	r.step()
	must(t, r.status("q") == task.Queued, "q started over the safe allowance")
	ds := r.decisions("")
	must(t, has(ds, "7-day window at 60.0%, over its safe allowance"), "decisions %q", ds)
}

// Cancelling a running task stops its agent (process group gone) and
// records it; cancelling it again is a conflict.
func TestCancelStopsTheAgent(t *testing.T) {
	r := newRig(t, 2)
	r.add("c", "wait", 0)
	r.step()
	tk, _ := r.st.Task(context.Background(), "c")
	must(t, tk.Status == task.Running, "c: %s", tk.Status)
	got, err := r.sched.Cancel(context.Background(), "c", "user changed their mind")
	must(t, err == nil && got.Status == task.Cancelled, "cancel: %+v %v", got, err)
	pid := strings.TrimPrefix(tk.AgentRef, "pid:")
	_, statErr := os.Stat("/proc/" + pid)
	must(t, os.IsNotExist(statErr), "agent pid %s still exists", pid)
	if _, err := r.sched.Cancel(context.Background(), "c", ""); err == nil {
		t.Error("second cancel succeeded")
	}
	r.step()
	must(t, r.status("c") == task.Cancelled, "status after a step: %s", r.status("c"))
	must(t, has(r.decisions("c"), "cancel: user changed their mind"), "decisions %q", r.decisions("c"))
}
