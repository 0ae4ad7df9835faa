//go:build linux

package orchestrator

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/task"
)

// fillDisk makes every write of this process past the first byte of a
// file fail, as on a full disk: RLIMIT_FSIZE, so SQLite's next append to
// its WAL fails for real (EFBIG; Go ignores SIGXFSZ). The returned func
// lifts it.
func fillDisk(t *testing.T) func() {
	t.Helper()
	var was syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &was); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: 1, Max: was.Max}); err != nil {
		t.Fatal(err)
	}
	lifted := false
	lift := func() {
		if !lifted {
			lifted = true
			if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &was); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Cleanup(lift)
	return lift
}

// fullAfter runs the real runner, then fills the disk (fillDisk) once the
// agent has started: the write that marks the task running is the first
// to fail.
type fullAfter struct {
	agent.Runner
	t    *testing.T
	runs []agent.Run
	lift func()
}

func (f *fullAfter) Start(ctx context.Context, t *task.Task) (agent.Run, error) {
	run, err := f.Runner.Start(ctx, t)
	if err == nil {
		f.runs = append(f.runs, run)
		f.lift = fillDisk(f.t)
	}
	return run, err
}

// fullAfterClaim fills the disk right after the claim is written.
type fullAfterClaim struct {
	task.Store
	t    *testing.T
	lift func()
}

func (f *fullAfterClaim) ClaimNext(ctx context.Context, owner, system, reason string, now time.Time) (*task.Task, error) {
	got, err := f.Store.ClaimNext(ctx, owner, system, reason, now)
	if got != nil {
		f.lift = fillDisk(f.t)
	}
	return got, err
}

// A store that cannot record that a task runs leaves no agent working
// under a mere claim (which the next start would run a second time): the
// agent, already started, is stopped at once, and the step fails with
// the store's error. The disk is full for real: SQLite's write fails.
func TestAgentIsStoppedWhenItsStartCannotBeRecorded(t *testing.T) {
	r := newRig(t, 2)
	full := &fullAfter{Runner: r.sched.o.Runners[agent.HeadlessName], t: t}
	r.sched.o.Runners[agent.HeadlessName] = full
	r.add("a", "wait for me", 0)

	err := r.sched.Step(context.Background())
	full.lift()
	if err == nil || !strings.Contains(err.Error(), "mark task a running") {
		t.Fatalf("the step returned %v, want the store's refusal to mark a running", err)
	}
	if len(full.runs) != 1 {
		t.Fatalf("%d agents started", len(full.runs))
	}
	select {
	case <-full.runs[0].Done():
	default:
		t.Fatal("the agent the store could not record is still running")
	}
	if n := r.sched.Status().Running; n != 0 {
		t.Errorf("the scheduler watches %d agents, want 0", n)
	}
	if st := r.status("a"); st == task.Running {
		t.Errorf("a is %s with its agent stopped", st)
	}
}

// When the store refuses the start decision (written before the agent
// runs), no agent starts at all; with Gate shut, nothing is claimed.
func TestNoAgentStartsWhenTheStoreRefusesTheStart(t *testing.T) {
	r := newRig(t, 2)
	claim := &fullAfterClaim{Store: r.st, t: t}
	r.sched.o.Store = claim
	r.add("b", "wait for me", 0)

	err := r.sched.Step(context.Background())
	claim.lift()
	if err == nil || !strings.Contains(err.Error(), "record the start of task b") {
		t.Fatalf("the step returned %v, want the store's refusal of the start", err)
	}
	if b, _ := os.ReadFile(r.log); len(b) != 0 {
		t.Fatalf("an agent started:\n%s", b)
	}

	r.sched.o.Store = r.st
	r.add("c", "wait for me", 0)
	shut := true
	r.sched.o.Gate = func() error {
		if shut {
			return os.ErrPermission
		}
		return nil
	}
	r.step()
	if st := r.status("c"); st != task.Queued {
		t.Fatalf("with the gate shut c is %s, want queued", st)
	}
	if b, _ := os.ReadFile(r.log); len(b) != 0 {
		t.Fatalf("an agent started with the gate shut:\n%s", b)
	}
	shut = false
	r.step()
	if st := r.status("c"); st != task.Running {
		t.Fatalf("with the gate open again c is %s, want running", st)
	}
}
