// Command pool measures how fast a worker of a pool wakes for a new task:
// three schedulers (internal/orchestrator), each with its own PostgreSQL
// store (own connection pool) and its own LISTEN connection (postgres.Store.ListenTasks), share one
// queue; tasks are queued one at a time, -gap apart, so every one finds
// the workers idle, and the wake-up latency of each is the time from just
// before CreateTask (whose commit sends the NOTIFY) to the moment a
// worker's runner is asked to start it (claimed). The fallback poll is
// set to a minute, so polling cannot explain any figure. The baseline,
// measured in the same run on the same server, is a bare NOTIFY → LISTEN
// round trip on two pgx connections: the ratio says what the scheduler
// adds on top of PostgreSQL's own delivery.
//
//	bench/pool/run.sh [-tasks 300] [-gap 20ms] [-check]
//
// It needs a PostgreSQL server it may create a database on:
// WARDEN_TEST_PG_URL (run.sh starts a throw-away one with
// scripts/pg-test.sh).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/orchestrator"
	"github.com/warden-dev/warden/internal/pool"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/task"
)

func main() {
	n := flag.Int("tasks", 300, "tasks to queue (at least 200 for a p99)")
	gap := flag.Duration("gap", 20*time.Millisecond, "time between two tasks")
	workers := flag.Int("workers", 3, "schedulers sharing the queue")
	check := flag.Bool("check", false, "exit 1 unless the median wake-up is under -max-median and every task was claimed once")
	maxMedian := flag.Duration("max-median", 100*time.Millisecond, "median limit for -check")
	flag.Parse()
	admin := os.Getenv("WARDEN_TEST_PG_URL")
	if admin == "" {
		fmt.Fprintln(os.Stderr, "pool bench: WARDEN_TEST_PG_URL is not set; run bench/pool/run.sh (it starts a PostgreSQL server)")
		os.Exit(2)
	}
	ctx := context.Background()
	dbURL, drop, err := createDB(ctx, admin)
	if err != nil {
		fail(err)
	}
	defer drop()

	base, err := bareRoundTrips(ctx, dbURL, *n, *gap)
	if err != nil {
		fail(fmt.Errorf("baseline: %w", err))
	}
	wake, dup, err := wakeUps(ctx, dbURL, *workers, *n, *gap)
	if err != nil {
		fail(err)
	}
	bm, bp := pct(base, 50), pct(base, 99)
	wm, wp := pct(wake, 50), pct(wake, 99)
	fmt.Printf("pool wake-up: %d tasks, %d workers, one queued every %v (fallback poll 1 min)\n", *n, *workers, *gap)
	fmt.Printf("  bare NOTIFY → LISTEN round trip (baseline): median %7s  p99 %7s\n", ms(bm), ms(bp))
	fmt.Printf("  task created → claimed by a worker:         median %7s  p99 %7s  (%.1f× / %.1f× the baseline)\n",
		ms(wm), ms(wp), ratio(wm, bm), ratio(wp, bp))
	fmt.Printf("  claimed twice: %d, never claimed: %d\n", dup, *n-len(wake))
	if *check {
		if wm >= *maxMedian || dup > 0 || len(wake) != *n {
			fmt.Printf("FAIL: want median < %v, every task claimed exactly once\n", *maxMedian)
			os.Exit(1)
		}
		fmt.Printf("ok: median %s < %v\n", ms(wm), *maxMedian)
	}
}

// wakeUps runs the schedulers and queues n tasks; it returns each task's
// created → claimed latency and how many tasks were started twice.
func wakeUps(ctx context.Context, dbURL string, workers, n int, gap time.Duration) ([]time.Duration, int, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	rec := &recorder{started: map[string]time.Time{}, count: map[string]int{}}
	var wg sync.WaitGroup
	var stores []*postgres.Store
	defer func() {
		cancel()
		wg.Wait()
		for _, st := range stores {
			st.Close()
		}
	}()
	listening := make(chan struct{}, workers)
	for i := range workers {
		st, err := postgres.Open(ctx, dbURL)
		if err != nil {
			return nil, 0, err
		}
		stores = append(stores, st)
		name := fmt.Sprintf("w%d", i+1)
		sched, err := orchestrator.New(orchestrator.Options{
			Store: st, Runners: map[string]agent.Runner{agent.HeadlessName: rec},
			Quota: open{}, Log: log, Owner: pool.OwnerOf(name, i+1), System: name, MaxAgents: 4,
			Interval: time.Minute, // the fallback poll: never the reason a task was seen
		})
		if err != nil {
			return nil, 0, err
		}
		var once sync.Once
		wg.Go(func() {
			_ = st.ListenTasks(ctx, func(id string) {
				if id == "" { // connected
					once.Do(func() { listening <- struct{}{} })
				}
				sched.Notify()
			})
		})
		wg.Go(func() { _ = sched.Run(ctx) })
	}
	for range workers {
		<-listening
	}
	time.Sleep(200 * time.Millisecond) // the schedulers' first (empty) steps
	created := map[string]time.Time{}
	st := stores[0]
	for i := range n {
		now := time.Now().UTC()
		t := &task.Task{ID: task.NewID(now), Project: "/tmp", Prompt: fmt.Sprintf("bench %d", i), Status: task.Queued,
			Source: "bench", CreatedAt: now, UpdatedAt: now}
		t0 := time.Now()
		if _, _, err := st.CreateTask(ctx, t, 0); err != nil {
			return nil, 0, err
		}
		created[t.ID] = t0
		time.Sleep(gap)
	}
	deadline := time.Now().Add(30 * time.Second)
	for rec.claimed() < n && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var out []time.Duration
	dup := 0
	for id, t0 := range created {
		if at, ok := rec.started[id]; ok {
			out = append(out, at.Sub(t0))
		}
		if rec.count[id] > 1 {
			dup++
		}
	}
	return out, dup, nil
}

// bareRoundTrips is the baseline: NOTIFY on one connection, the time until
// a second connection's WaitForNotification returns it.
func bareRoundTrips(ctx context.Context, dbURL string, n int, gap time.Duration) ([]time.Duration, error) {
	lc, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return nil, err
	}
	defer lc.Close(ctx)
	nc, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return nil, err
	}
	defer nc.Close(ctx)
	if _, err := lc.Exec(ctx, "LISTEN bench_baseline"); err != nil {
		return nil, err
	}
	var out []time.Duration
	for range n {
		t0 := time.Now()
		if _, err := nc.Exec(ctx, "NOTIFY bench_baseline"); err != nil {
			return nil, err
		}
		wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		_, err := lc.WaitForNotification(wctx)
		cancel()
		if err != nil {
			return nil, err
		}
		out = append(out, time.Since(t0))
		time.Sleep(gap)
	}
	return out, nil
}

// recorder is the runner: it notes when it is asked to start a task, and
// the task's agent finishes at once.
type recorder struct {
	mu      sync.Mutex
	started map[string]time.Time
	count   map[string]int
}

func (r *recorder) Name() string { return agent.HeadlessName }

func (r *recorder) Start(_ context.Context, t *task.Task) (agent.Run, error) {
	now := time.Now()
	r.mu.Lock()
	if _, ok := r.started[t.ID]; !ok {
		r.started[t.ID] = now
	}
	r.count[t.ID]++
	r.mu.Unlock()
	return done{}, nil
}

func (r *recorder) Reattach(context.Context, *task.Task) (agent.Run, error) { return nil, nil }

func (r *recorder) claimed() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.started)
}

// done is an agent that has finished.
type done struct{}

var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (done) Ref() string           { return "bench" }
func (done) Done() <-chan struct{} { return closed }
func (done) Outcome() agent.Outcome {
	return agent.Outcome{Status: task.Done, Result: "ok"}
}
func (done) Stop(context.Context) error     { return nil }
func (done) Shutdown(context.Context) error { return nil }

// open is a quota that never holds work back.
type open struct{}

func (open) Quota(context.Context, time.Time) (orchestrator.Quota, error) {
	return orchestrator.Quota{Reason: "bench: quota not consulted"}, nil
}

func createDB(ctx context.Context, admin string) (string, func(), error) {
	name := fmt.Sprintf("warden_bench_pool_%d", os.Getpid())
	c, err := pgx.Connect(ctx, admin)
	if err != nil {
		return "", nil, fmt.Errorf("connect to WARDEN_TEST_PG_URL: %w", err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", nil, err
	}
	u, err := url.Parse(admin)
	if err != nil {
		return "", nil, err
	}
	u.Path = "/" + name
	drop := func() {
		c, err := pgx.Connect(context.Background(), admin)
		if err != nil {
			return
		}
		defer c.Close(context.Background())
		_, _ = c.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	}
	return u.String(), drop, nil
}

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := (len(s)*p + 99) / 100
	return s[min(max(i-1, 0), len(s)-1)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d.Microseconds())/1000) }

func ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func fail(err error) {
	if errors.Is(err, context.Canceled) {
		os.Exit(1)
	}
	fmt.Fprintln(os.Stderr, "pool bench:", err)
	os.Exit(1)
}
