// Command store-queue measures the task queue of the shared store: W
// workers, each with a PostgreSQL store of its own (as on W machines),
// wake on NOTIFY (postgres.ListenTasks) and claim with SKIP LOCKED while a
// producer creates N tasks. It checks every task is claimed exactly once
// (none lost, none twice) and prints the create → claim latency. The
// baseline, measured in the same run, is today's single daemon: one
// process, the SQLite store, woken in process by a channel. The ratio of
// the two medians is what to compare across machines.
//
//	WARDEN_TEST_PG_URL=postgres://… go run ./bench/store-queue [-tasks 1000] [-workers 3] [-interval 5ms] [-check]
//
// run.sh provides the server (scripts/pg-test.sh).
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/task"
)

// queue is what a worker needs of a store.
type queue interface {
	CreateTask(ctx context.Context, t *task.Task, limit int) (*task.Task, bool, error)
	ClaimNext(ctx context.Context, owner, system, reason string, now time.Time) (*task.Task, error)
	UpdateTask(ctx context.Context, id string, c task.Change) (*task.Task, error)
	CountTasks(ctx context.Context) (map[task.Status]int, error)
	Close() error
}

type result struct {
	lost, twice int
	lat         []time.Duration
	elapsed     time.Duration
}

func main() {
	n := flag.Int("tasks", 1000, "tasks to create")
	workers := flag.Int("workers", 3, "PostgreSQL workers")
	interval := flag.Duration("interval", 5*time.Millisecond, "pause between two creations (below the workers' capacity, so latency is wake-up, not queueing)")
	check := flag.Bool("check", false, "exit 1 when a task is lost or claimed twice, or the median wake-up is 100 ms or more")
	flag.Parse()
	admin := os.Getenv("WARDEN_TEST_PG_URL")
	if admin == "" {
		fail("WARDEN_TEST_PG_URL is not set: run bench/store-queue/run.sh (it starts a server)")
	}
	ctx := context.Background()

	dir, err := os.MkdirTemp("", "store-queue-")
	if err != nil {
		fail(err.Error())
	}
	defer os.RemoveAll(dir)
	lite, err := sqlite.Open(ctx, filepath.Join(dir, "w.db"))
	if err != nil {
		fail(err.Error())
	}
	lite.SetMaxOpenConns(4)
	base := run(ctx, *n, *interval, []queue{lite}, func(q queue, wake func(string)) func() { return nil }, true)

	dbURL, drop := database(ctx, admin)
	defer drop()
	var pgs []queue
	// Each queue's LISTEN, by queue.
	listeners := map[queue]*postgres.Store{}
	for range *workers + 1 { // the producer has a store of its own too
		st, err := postgres.Open(ctx, dbURL)
		if err != nil {
			drop()
			fail(err.Error())
		}
		pgs = append(pgs, st)
		listeners[st] = st
	}
	pg := run(ctx, *n, *interval, pgs, func(q queue, wake func(string)) func() {
		lctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { listeners[q].ListenTasks(lctx, wake); close(done) }()
		return func() { cancel(); <-done }
	}, false)

	report := func(name string, r result) {
		fmt.Printf("%-44s lost %d, twice %d; create→claim median %v, p90 %v, max %v; %.0f tasks/s\n",
			name, r.lost, r.twice, pct(r.lat, 50), pct(r.lat, 90), pct(r.lat, 100), float64(*n)/r.elapsed.Seconds())
	}
	report("sqlite, 1 process, in-process wake (baseline)", base)
	report(fmt.Sprintf("postgres, %d workers, NOTIFY wake", *workers), pg)
	ratio := float64(pct(pg.lat, 50)) / float64(max(pct(base.lat, 50), time.Microsecond))
	fmt.Printf("median ratio postgres/sqlite: %.1f\n", ratio)
	if *check && (pg.lost+pg.twice+base.lost+base.twice > 0 || pct(pg.lat, 50) >= 100*time.Millisecond) {
		fmt.Println("FAIL")
		os.Exit(1)
	}
}

// run creates n tasks on qs[0] (interval apart, as requests would come) while every other store (or qs[0] alone) works the queue: wake,
// claim until empty, finish. inProcess: the producer wakes the workers
// through a channel (one process); otherwise listen subscribes each worker.
func run(ctx context.Context, n int, interval time.Duration, qs []queue, listen func(q queue, wake func(string)) func(), inProcess bool) result {
	producer, workers := qs[0], qs
	if len(qs) > 1 {
		workers = qs[1:]
	}
	var mu sync.Mutex
	created := map[string]time.Time{}
	claimed := map[string]int{}
	var lat []time.Duration
	var wakes []chan struct{}
	var stops []func()
	var wg sync.WaitGroup
	finished := make(chan struct{})
	for i, q := range workers {
		wake := make(chan struct{}, 1)
		wakes = append(wakes, wake)
		poke := func(string) {
			select {
			case wake <- struct{}{}:
			default:
			}
		}
		if !inProcess {
			stops = append(stops, listen(q, poke))
		}
		wg.Go(func() {
			for {
				select {
				case <-finished:
					return
				case <-wake:
				}
				for {
					t, err := q.ClaimNext(ctx, fmt.Sprint("w", i), "", "bench", time.Now())
					if err != nil {
						fail(err.Error())
					}
					if t == nil {
						break
					}
					now := time.Now()
					mu.Lock()
					claimed[t.ID]++
					lat = append(lat, now.Sub(created[t.ID]))
					mu.Unlock()
					if _, err := q.UpdateTask(ctx, t.ID, task.Change{To: task.Done, Reason: "bench"}); err != nil {
						fail(err.Error())
					}
				}
			}
		})
	}
	time.Sleep(200 * time.Millisecond) // listeners connect (ListenTasks wakes once when they have)
	start := time.Now()
	for i := range n {
		id := fmt.Sprintf("t%05d", i)
		now := time.Now()
		mu.Lock()
		created[id] = now
		mu.Unlock()
		if _, _, err := producer.CreateTask(ctx, &task.Task{ID: id, Project: "/p", Prompt: id, Status: task.Queued, CreatedAt: now, UpdatedAt: now}, 0); err != nil {
			fail(err.Error())
		}
		if inProcess {
			for _, w := range wakes {
				select {
				case w <- struct{}{}:
				default:
				}
			}
		}
		time.Sleep(interval)
	}
	// Done when every task is; bounded.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		c, err := producer.CountTasks(ctx)
		if err != nil {
			fail(err.Error())
		}
		if c[task.Done] == n || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	elapsed := time.Since(start)
	close(finished)
	wg.Wait()
	for _, s := range stops {
		s()
	}
	for _, q := range qs {
		q.Close()
	}
	r := result{lat: lat, elapsed: elapsed}
	for id := range created {
		switch claimed[id] {
		case 0:
			r.lost++
		case 1:
		default:
			r.twice++
		}
	}
	return r
}

// database creates a fresh database on the server admin names; drop
// removes it.
func database(ctx context.Context, admin string) (string, func()) {
	var b [4]byte
	rand.Read(b[:])
	name := "store_queue_" + hex.EncodeToString(b[:])
	exec := func(sql string) error {
		c, err := pgx.Connect(ctx, admin)
		if err != nil {
			return err
		}
		defer c.Close(ctx)
		_, err = c.Exec(ctx, sql)
		return err
	}
	if err := exec("CREATE DATABASE " + name); err != nil {
		fail(err.Error())
	}
	u, _ := url.Parse(admin)
	u.Path = "/" + name
	return u.String(), func() { exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)") }
}

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := (len(s) - 1) * p / 100
	return s[i].Round(10 * time.Microsecond)
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "store-queue:", msg)
	os.Exit(1)
}
