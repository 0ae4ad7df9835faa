package orchestrator

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/pool"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/task"
	"github.com/warden-dev/warden/internal/testenv"
)

// poolRig is an in-process pool: schedulers each with their own
// PostgreSQL store (own connection pool), LISTEN connection and
// heartbeat, the headless runner with the fake claude.
type poolRig struct {
	t                                *testing.T
	url, bin, project, releaseDir, l string
	env                              []string
	log                              *slog.Logger
	reg                              *pool.Stored
	st                               *postgres.Store // for queuing and checking
}

// poolWorker is one scheduler of the pool.
type poolWorker struct {
	st     *postgres.Store
	sched  *Scheduler
	cancel context.CancelFunc
	done   sync.WaitGroup
}

// beat is the rig's heartbeat: rows are stale after missed beats (3 s).
// Not 5 (500 ms): under -race on a loaded two-core CI machine a live
// worker's beat was late by that much, the others took it for gone and
// ran its tasks a second time. A deadline, not a timed assertion: the
// only wait it adds is for the worker the test stops.
const (
	beat   = 100 * time.Millisecond
	missed = 30
)

func newPoolRig(t *testing.T) *poolRig {
	t.Helper()
	dir := t.TempDir()
	r := &poolRig{t: t, url: testenv.Postgres(t), bin: filepath.Join(dir, "claude"), project: filepath.Join(dir, "project"),
		releaseDir: filepath.Join(dir, "release"), l: filepath.Join(dir, "claude.log"), log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if err := os.WriteFile(r.bin, []byte(fakeClaude), 0o755); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(r.project, 0o755)
	os.MkdirAll(r.releaseDir, 0o755)
	r.env = append(os.Environ(), "FAKE_LOG="+r.l, "FAKE_RELEASE="+r.releaseDir)
	var err error
	if r.st, err = postgres.Open(context.Background(), r.url); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.st.Close() })
	r.reg = &pool.Stored{St: r.st, Stale: pool.StaleAfter(beat, missed)}
	return r
}

// start runs a scheduler for system name as owner name:pid; it returns
// once its LISTEN is in place.
func (r *poolRig) start(name string, pid int, recoverEvery time.Duration) *poolWorker {
	r.t.Helper()
	ctx := context.Background()
	st, err := postgres.Open(ctx, r.url)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { st.Close() })
	w := &poolWorker{st: st}
	owner := pool.OwnerOf(name, pid)
	w.sched, err = New(Options{
		Store: st, Owner: owner, System: name, MaxAgents: 2, Log: r.log,
		Runners:  map[string]agent.Runner{agent.HeadlessName: crashLike{&agent.Headless{Command: r.bin, Env: r.env, Dir: filepath.Join(filepath.Dir(r.l), "tasks", owner), Grace: time.Second}}},
		Quota:    &PaceQuota{}, // pacing off: never holds
		Interval: time.Minute, Peers: pool.Peers{Registry: r.reg, Leases: st}, RecoverEvery: recoverEvery,
	})
	if err != nil {
		r.t.Fatal(err)
	}
	wctx, cancel := context.WithCancel(ctx)
	w.cancel = cancel
	listening := make(chan struct{}, 1)
	w.done.Go(func() {
		pool.Heartbeat(wctx, r.reg, beat, func() pool.System { return pool.System{Owner: owner, Name: name, PID: pid, Started: time.Now()} }, r.log)
	})
	w.done.Go(func() {
		_ = st.ListenTasks(wctx, func(id string) {
			if id == "" { // (re)connected
				select {
				case listening <- struct{}{}:
				default:
				}
			}
			w.sched.Notify()
		})
	})
	<-listening
	w.done.Go(func() { _ = w.sched.Run(wctx) })
	r.t.Cleanup(func() { cancel(); w.done.Wait() })
	return w
}

// stop ends the worker as a crash would for its agents (they die with
// it) and its heartbeat; its tasks stay as they are in the store.
func (w *poolWorker) stop() {
	w.cancel()
	w.done.Wait()
}

func (r *poolRig) add(prompt string) string {
	r.t.Helper()
	now := time.Now().UTC()
	tk := &task.Task{ID: task.NewID(now), Project: r.project, Prompt: prompt, Status: task.Queued, Source: "test", CreatedAt: now, UpdatedAt: now}
	if _, _, err := r.st.CreateTask(context.Background(), tk, 0); err != nil {
		r.t.Fatal(err)
	}
	return tk.ID
}

func (r *poolRig) task(id string) *task.Task {
	r.t.Helper()
	tk, err := r.st.Task(context.Background(), id)
	if err != nil {
		r.t.Fatal(err)
	}
	return tk
}

// runs counts the fake claude's starts per task.
func (r *poolRig) runs() map[string]int {
	out := map[string]int{}
	f, err := os.Open(r.l)
	if err != nil {
		return out
	}
	defer f.Close()
	for sc := bufio.NewScanner(f); sc.Scan(); {
		out[strings.Fields(sc.Text())[0]]++
	}
	return out
}

func (r *poolRig) release(ids ...string) {
	for _, id := range ids {
		os.WriteFile(filepath.Join(r.releaseDir, id), nil, 0o644)
	}
}

func (r *poolRig) waitUntil(what string, cond func() bool) {
	r.t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			r.t.Fatalf("gave up waiting for %s", what)
		}
	}
}

func (r *poolRig) history(id string) string {
	h, _ := r.st.History(context.Background(), id)
	return fmt.Sprint(h)
}

// TestPoolSchedulersShareTheQueue runs the scheduler's pool mode under
// the race detector: three schedulers woken only by NOTIFY (their poll
// is a minute) run 40 tasks, each exactly once by the fake claude's own
// log; when one stops (its heartbeat with it), another requeues its two
// running tasks under the recovery lease and runs them again.
func TestPoolSchedulersShareTheQueue(t *testing.T) {
	r := newPoolRig(t)
	// b alone takes two waiting tasks; then a and c join.
	b := r.start("b", 1, 200*time.Millisecond)
	held := []string{r.add("wait 1"), r.add("wait 2")}
	r.waitUntil("b running both", func() bool {
		return r.task(held[0]).Status == task.Running && r.task(held[1]).Status == task.Running
	})
	r.start("a", 1, 200*time.Millisecond)
	r.start("c", 1, 200*time.Millisecond)
	var quick []string
	for i := range 38 {
		quick = append(quick, r.add(fmt.Sprintf("quick %d", i)))
	}
	r.waitUntil("the quick tasks done", func() bool {
		for _, id := range quick {
			if r.task(id).Status != task.Done {
				return false
			}
		}
		return true
	})
	b.stop()
	r.release(held...)
	r.waitUntil("b's tasks run again and done", func() bool {
		return r.task(held[0]).Status == task.Done && r.task(held[1]).Status == task.Done
	})
	got := r.runs()
	for _, id := range quick {
		if got[id] != 1 {
			t.Errorf("task %s ran %d times; want once", id, got[id])
		}
	}
	for _, id := range held {
		tk := r.task(id)
		if got[id] != 2 || tk.Attempts != 2 || strings.HasPrefix(tk.Owner, "b:") {
			t.Errorf("b's task %s ran %d times, %d attempts, last owner %s; want twice, 2, not b", id, got[id], tk.Attempts, tk.Owner)
		}
		if h := r.history(id); !strings.Contains(h, "worker b:1 is gone (no heartbeat)") {
			t.Errorf("task %s's history does not name the gone worker: %s", id, h)
		}
	}
}

// A worker restarted under the same system name before its old row went
// stale takes back its old process's tasks at once (Reconcile: the old
// pid is gone), while a live worker of another system keeps its own.
func TestPoolRestartReconcilesOnlyItsOwn(t *testing.T) {
	r := newPoolRig(t)
	// A pid that no process has: a child that has exited and been reaped.
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	old := r.start("b", gone.Process.Pid, time.Hour)
	mine := []string{r.add("wait b1"), r.add("wait b2")}
	r.waitUntil("old b running both", func() bool {
		return r.task(mine[0]).Status == task.Running && r.task(mine[1]).Status == task.Running
	})
	r.start("a", os.Getpid(), time.Hour)
	theirs := r.add("wait a1")
	r.waitUntil("a running its task", func() bool { return r.task(theirs).Status == task.Running })
	old.stop()
	// Restarted at once: its old row is still fresh, no peer recovers.
	r.release(mine...)
	r.start("b", os.Getpid()+1_000_000, time.Hour) // a pid no process has either
	r.waitUntil("b's old tasks run again and done", func() bool {
		return r.task(mine[0]).Status == task.Done && r.task(mine[1]).Status == task.Done
	})
	for _, id := range mine {
		if h := r.history(id); !strings.Contains(h, "daemon restarted while the task was running (attempt 1 of 3)") {
			t.Errorf("task %s: %s; want requeued by the restarted b", id, h)
		}
	}
	if tk := r.task(theirs); tk.Status != task.Running || tk.Attempts != 1 {
		t.Errorf("a's task is %s after %d attempts; the restarted b must leave it alone", tk.Status, tk.Attempts)
	}
	r.release(theirs)
	r.waitUntil("a's task done", func() bool { return r.task(theirs).Status == task.Done })
}

// TestPoolWorkerYieldsATaskNoLongerItsOwn: a worker whose task was taken
// over by another owner while it ran (a peer's recovery after missed
// heartbeats) stops its agent, and its late outcome does not overwrite
// the task: every change it makes is fenced on its own claim.
func TestPoolWorkerYieldsATaskNoLongerItsOwn(t *testing.T) {
	r := newPoolRig(t)
	a := r.start("a", 1, time.Minute)
	id := r.add("wait yield")
	r.waitUntil("a running the task", func() bool { return r.task(id).Status == task.Running })
	ctx := context.Background()
	if _, err := r.st.UpdateTask(ctx, id, task.Change{Owner: pool.OwnerOf("a", 1), NewOwner: "z:1"}); err != nil {
		t.Fatal(err)
	}
	a.sched.Notify()
	r.waitUntil("a's agent stopped", func() bool {
		a.sched.mu.Lock()
		defer a.sched.mu.Unlock()
		return len(a.sched.runs) == 0
	})
	r.release(id)
	a.sched.Notify()
	// a's later steps leave the task as z holds it.
	if err := a.sched.Step(ctx); err != nil {
		t.Fatal(err)
	}
	if got := r.task(id); got.Status != task.Running || got.Owner != "z:1" {
		t.Fatalf("task after a yielded: %s owned by %q; history %s", got.Status, got.Owner, r.history(id))
	}
	// A finish fenced on a's claim is refused outright.
	done := "late"
	if _, err := r.st.UpdateTask(ctx, id, task.Change{Owner: pool.OwnerOf("a", 1), To: task.Done, Result: &done}); err == nil {
		t.Fatal("a change fenced on the old claim was applied")
	}
}

// crashLike runs agents whose stop at the worker's end is a crash for
// their tasks: they are not handed back (handback.go), so the tests of
// recovery see what a worker that died leaves.
type crashLike struct{ agent.Runner }

// plainRun hides HandedBack.
type plainRun struct{ agent.Run }

func (c crashLike) Start(ctx context.Context, t *task.Task) (agent.Run, error) {
	run, err := c.Runner.Start(ctx, t)
	if run == nil {
		return nil, err
	}
	return plainRun{run}, err
}
