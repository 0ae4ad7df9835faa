package orchestrator

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/pool"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/task"
	"github.com/warden-dev/warden/internal/testenv"
)

// poolWorker is one scheduler of an in-process pool: its own PostgreSQL
// store (own connection pool), its own LISTEN connection and heartbeat.
type poolWorker struct {
	name   string
	st     *postgres.Store
	sched  *Scheduler
	cancel context.CancelFunc
	done   sync.WaitGroup
}

// TestPoolSchedulersShareTheQueue runs the scheduler's pool mode under
// the race detector: three schedulers woken only by NOTIFY (their poll
// is a minute) run 40 tasks, each exactly once by the fake claude's own
// log; when one stops (its heartbeat with it), another requeues its two
// running tasks under the recovery lease and runs them again.
func TestPoolSchedulersShareTheQueue(t *testing.T) {
	url := testenv.Postgres(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "claude")
	if err := os.WriteFile(bin, []byte(fakeClaude), 0o755); err != nil {
		t.Fatal(err)
	}
	project, release, logf := filepath.Join(dir, "project"), filepath.Join(dir, "release"), filepath.Join(dir, "claude.log")
	os.MkdirAll(project, 0o755)
	os.MkdirAll(release, 0o755)
	env := append(os.Environ(), "FAKE_LOG="+logf, "FAKE_RELEASE="+release)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx := context.Background()
	const beat = 100 * time.Millisecond
	reg, err := pool.OpenPG(ctx, url, pool.StaleAfter(beat, 5))
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()

	start := func(name string) *poolWorker {
		st, err := postgres.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		w := &poolWorker{name: name, st: st}
		owner := pool.OwnerOf(name, 1)
		w.sched, err = New(Options{
			Store: st, Owner: owner, System: name, MaxAgents: 2, Log: log,
			Runners:  map[string]Runner{HeadlessName: &Headless{Command: bin, Env: env, Dir: filepath.Join(dir, "tasks", name), Grace: time.Second}},
			Quota:    &PaceQuota{}, // pacing off: never holds
			Interval: time.Minute, Peers: pool.Peers{Registry: reg, Leases: st}, RecoverEvery: 200 * time.Millisecond,
		})
		if err != nil {
			t.Fatal(err)
		}
		wctx, cancel := context.WithCancel(ctx)
		w.cancel = cancel
		listening := make(chan struct{}, 1)
		w.done.Go(func() {
			pool.Heartbeat(wctx, reg, beat, func() pool.System { return pool.System{Owner: owner, Name: name, Started: time.Now()} }, log)
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
		t.Cleanup(func() { cancel(); w.done.Wait() })
		return w
	}
	add := func(prompt string) string {
		now := time.Now().UTC()
		tk := &task.Task{ID: task.NewID(now), Project: project, Prompt: prompt, Status: task.Queued, Source: "test", CreatedAt: now, UpdatedAt: now}
		if _, _, err := ctxStore(t, url).CreateTask(ctx, tk, 0); err != nil {
			t.Fatal(err)
		}
		return tk.ID
	}
	runs := func() map[string]int {
		out := map[string]int{}
		f, err := os.Open(logf)
		if err != nil {
			return out
		}
		defer f.Close()
		for sc := bufio.NewScanner(f); sc.Scan(); {
			out[strings.Fields(sc.Text())[0]]++
		}
		return out
	}
	status := func(st *postgres.Store, id string) task.Status {
		tk, err := st.Task(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return tk.Status
	}
	waitUntil := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("gave up waiting for %s", what)
			}
		}
	}

	// b alone takes two waiting tasks; then a and c join.
	b := start("b")
	held := []string{add("wait 1"), add("wait 2")}
	waitUntil("b running both", func() bool { return status(b.st, held[0]) == task.Running && status(b.st, held[1]) == task.Running })
	a, c := start("a"), start("c")
	var quick []string
	for i := range 38 {
		quick = append(quick, add(fmt.Sprintf("quick %d", i)))
	}
	waitUntil("the quick tasks done", func() bool {
		for _, id := range quick {
			if status(a.st, id) != task.Done {
				return false
			}
		}
		return true
	})
	// b stops (its agents with it) and beats no more.
	b.cancel()
	b.done.Wait()
	for _, id := range held {
		os.WriteFile(filepath.Join(release, id), nil, 0o644)
	}
	waitUntil("b's tasks run again and done", func() bool {
		return status(c.st, held[0]) == task.Done && status(c.st, held[1]) == task.Done
	})
	got := runs()
	for _, id := range quick {
		if got[id] != 1 {
			t.Errorf("task %s ran %d times; want once", id, got[id])
		}
	}
	for _, id := range held {
		tk, _ := a.st.Task(ctx, id)
		if got[id] != 2 || tk.Attempts != 2 || strings.HasPrefix(tk.Owner, "b:") {
			t.Errorf("b's task %s ran %d times, %d attempts, last owner %s; want twice, 2, not b", id, got[id], tk.Attempts, tk.Owner)
		}
		h, _ := a.st.History(ctx, id)
		if !strings.Contains(fmt.Sprint(h), "worker b:1 is gone (no heartbeat)") {
			t.Errorf("task %s's history does not name the gone worker: %v", id, h)
		}
	}
}

var storeOnce sync.Map

// ctxStore is one store for queuing, apart from the workers'.
func ctxStore(t *testing.T, url string) *postgres.Store {
	if st, ok := storeOnce.Load(url); ok {
		return st.(*postgres.Store)
	}
	st, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close(); storeOnce.Delete(url) })
	storeOnce.Store(url, st)
	return st
}
