// Command daemon-load is a bounded load test of `warden serve` on
// loopback: an open-loop Go client sends -rate requests a second for
// -duration, a mix of reads and task creations, against a daemon started
// in a temporary WARDEN_HOME whose agents are a `claude` script that
// finishes at once. It prints latency percentiles, errors, and whether any
// created task was lost or duplicated (every acknowledged creation must be
// in the store exactly once; retries with the same idempotency key must
// not make a second task). The baseline is a bare net/http server in this
// process answering a fixed JSON body at the same rate, measured in the
// same run: the ratio of the two p99s is what to compare across machines.
//
//	go run ./bench/daemon-load -bin DIR [-duration 30s] [-rate 200] [-check]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/task"
	"github.com/warden-dev/warden/internal/testenv"
)

type result struct {
	kind    string
	latency time.Duration
	status  int
	err     error
	taskID  string
	key     string
}

func main() {
	bin := flag.String("bin", "", "directory with warden, warden-core and warden-helper (required)")
	duration := flag.Duration("duration", 30*time.Second, "how long to send")
	rate := flag.Int("rate", 200, "requests per second")
	writes := flag.Float64("writes", 0.25, "share of requests that create a task")
	retries := flag.Float64("retries", 0.05, "share of creations that repeat an earlier idempotency key")
	check := flag.Bool("check", false, "exit 1 unless p99 < -max-p99, no errors, no lost or duplicated task")
	maxP99 := flag.Duration("max-p99", 50*time.Millisecond, "p99 limit for -check")
	flag.Parse()
	if *bin == "" {
		flag.Usage()
		testenv.Exit(2)
	}
	// A home of its own: never the developer's config, store or PATH.
	defer testenv.Isolate()()
	base, err := baseline(*rate, min(*duration/3, 10*time.Second))
	if err != nil {
		fatal(err)
	}
	d, err := startDaemon(*bin)
	if err != nil {
		fatal(err)
	}
	res := load(d, *rate, *duration, *writes, *retries)
	d.stop()
	lost, dup, created, err := verify(filepath.Join(d.home, "warden.db"), res)
	os.RemoveAll(d.home)
	if err != nil {
		fatal(err)
	}
	ok := report(res, base, lost, dup, created, *rate, *duration, *maxP99)
	if *check && !ok {
		testenv.Exit(1)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "daemon-load:", err)
	testenv.Exit(1)
}

type daemonProc struct {
	cmd   *exec.Cmd
	home  string
	url   string
	token string
	proj  string
}

const instantClaude = "#!/bin/sh\nprintf '{\"type\":\"result\",\"is_error\":false,\"result\":\"ok\"}\\n'\n"

func startDaemon(bin string) (*daemonProc, error) {
	home, err := os.MkdirTemp("", "warden-load-")
	if err != nil {
		return nil, err
	}
	d := &daemonProc{home: home, proj: filepath.Join(home, "project")}
	os.MkdirAll(d.proj, 0o755)
	claude := filepath.Join(home, "claude")
	os.WriteFile(claude, []byte(instantClaude), 0o755)
	cfg := fmt.Sprintf("[serve]\nqueue_size = 100000\nmax_agents = 4\nclaude_command = %q\n", claude)
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600)
	d.cmd = exec.Command(filepath.Join(bin, "warden"), "serve", "--addr", "127.0.0.1:0")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "WARDEN_") {
			env = append(env, kv)
		}
	}
	d.cmd.Env = append(env, "WARDEN_HOME="+home)
	d.cmd.Stdout, d.cmd.Stderr = io.Discard, io.Discard // its log is in WARDEN_HOME
	if err := d.cmd.Start(); err != nil {
		return nil, err
	}
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, err := os.ReadFile(filepath.Join(home, "run", "serve.json"))
		if err != nil {
			continue
		}
		var st struct{ URL string }
		if json.Unmarshal(b, &st) != nil || st.URL == "" {
			continue
		}
		tok, err := os.ReadFile(filepath.Join(home, "run", "cli.token"))
		if err != nil {
			continue
		}
		d.url, d.token = st.URL, strings.TrimSpace(string(tok))
		return d, nil
	}
	d.stop()
	os.RemoveAll(home)
	return nil, errors.New("the daemon did not start within 20 s")
}

func (d *daemonProc) stop() {
	if d.cmd.Process != nil {
		d.cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { d.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			d.cmd.Process.Kill()
			<-done
		}
	}
}

func client() *http.Client {
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 256, MaxConnsPerHost: 256,
		DialContext: (&net.Dialer{Timeout: 2 * time.Second}).DialContext}}
}

// load sends requests open-loop: one every 1/rate, each in its own
// goroutine, so a slow answer does not slow the arrivals.
func load(d *daemonProc, rate int, duration time.Duration, writes, retries float64) []result {
	c := client()
	var mu sync.Mutex
	var out []result
	var wg sync.WaitGroup
	var keys []string
	var ids []string
	tick := time.NewTicker(time.Second / time.Duration(rate))
	defer tick.Stop()
	end := time.Now().Add(duration)
	for n := 0; time.Now().Before(end); n++ {
		<-tick.C
		// A deterministic mix: every k-th request writes.
		var kind, method, path, key string
		var body []byte
		every := int(1 / writes)
		mu.Lock()
		switch {
		case n%every == 0:
			kind, method, path = "create", "POST", "/api/tasks"
			key = fmt.Sprintf("load-%d", n)
			if len(keys) > 0 && (n/every)%int(1/retries) == 0 {
				key = keys[(n*7919)%len(keys)] // a client retrying an earlier creation
				kind = "retry"
			}
			prompt := "load task " + key
			body, _ = json.Marshal(map[string]any{"project": d.proj, "prompt": prompt, "idempotency_key": key})
		default:
			kind, method = "read", "GET"
			switch n % 6 {
			case 1:
				path = "/api/tasks?limit=20"
			case 2:
				path = "/api/systems"
			case 3:
				path = "/api/events?limit=50"
			case 4:
				if len(ids) > 0 {
					path = "/api/tasks/" + ids[(n*31)%len(ids)]
				} else {
					path = "/api/tasks?status=queued"
				}
			case 5:
				path = "/api/pace"
			default:
				path = "/health/db"
			}
		}
		mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := result{kind: kind, key: key}
			var rd io.Reader
			if body != nil {
				rd = bytes.NewReader(body)
			}
			req, _ := http.NewRequest(method, d.url+path, rd)
			req.Header.Set("Authorization", "Bearer "+d.token)
			if body != nil {
				req.Header.Set("Content-Type", "application/json")
			}
			start := time.Now()
			resp, err := c.Do(req)
			if err == nil {
				var v struct{ ID string }
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				r.status = resp.StatusCode
				if method == "POST" && json.Unmarshal(b, &v) == nil {
					r.taskID = v.ID
				}
			}
			r.latency, r.err = time.Since(start), err
			mu.Lock()
			out = append(out, r)
			if r.taskID != "" && kind == "create" {
				keys = append(keys, key)
				ids = append(ids, r.taskID)
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
}

// verify compares what the client was told with what the store holds,
// read from the database file once the daemon has stopped.
func verify(dbPath string, res []result) (lost, dup, created int, err error) {
	byKey := map[string]string{}
	for _, r := range res {
		if r.taskID == "" {
			continue
		}
		if old, ok := byKey[r.key]; ok && old != r.taskID {
			dup++ // one key answered with two tasks
		}
		byKey[r.key] = r.taskID
	}
	created = len(byKey)
	ctx := context.Background()
	st, err := sqlite.Open(ctx, dbPath)
	if err != nil {
		return 0, 0, 0, err
	}
	defer st.Close()
	ts, err := st.Tasks(ctx, task.Filter{Limit: 1 << 30})
	if err != nil {
		return 0, 0, 0, err
	}
	seen := map[string]int{}
	keys := map[string]int{}
	for _, t := range ts {
		seen[t.ID]++
		keys[t.IdempotencyKey]++
	}
	for key, id := range byKey {
		if seen[id] != 1 {
			lost++
		}
		if keys[key] > 1 {
			dup++
		}
	}
	if len(ts) != created {
		// A task the client was never told about (a creation whose
		// answer was lost) would be a duplicate when retried.
		dup += max(0, len(ts)-created)
	}
	return lost, dup, created, nil
}

type pct struct{ p50, p90, p99, max time.Duration }

func percentiles(ds []time.Duration) pct {
	if len(ds) == 0 {
		return pct{}
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	at := func(q float64) time.Duration { return ds[min(len(ds)-1, int(q*float64(len(ds))))] }
	return pct{at(.50), at(.90), at(.99), ds[len(ds)-1]}
}

// baseline: a bare net/http server answering a fixed JSON body, same
// client, same rate.
func baseline(rate int, d time.Duration) (pct, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return pct{}, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"status":"ok"}` + "\n"))
	})}
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())
	c := client()
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	tick := time.NewTicker(time.Second / time.Duration(rate))
	defer tick.Stop()
	for end := time.Now().Add(d); time.Now().Before(end); {
		<-tick.C
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			resp, err := c.Get("http://" + ln.Addr().String() + "/")
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			mu.Lock()
			lat = append(lat, time.Since(start))
			mu.Unlock()
		}()
	}
	wg.Wait()
	return percentiles(lat), nil
}

func report(res []result, base pct, lost, dup, created, rate int, duration, maxP99 time.Duration) bool {
	var all, reads, writes []time.Duration
	errs := 0
	for _, r := range res {
		all = append(all, r.latency)
		if r.kind == "read" {
			reads = append(reads, r.latency)
		} else {
			writes = append(writes, r.latency)
		}
		if r.err != nil || r.status >= 300 {
			errs++
		}
	}
	a, rd, wr := percentiles(all), percentiles(reads), percentiles(writes)
	ms := func(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }
	fmt.Printf("daemon-load: %d requests in %v (%.0f/s target %d), %d reads, %d task creations (%d distinct tasks)\n",
		len(res), duration, float64(len(res))/duration.Seconds(), rate, len(reads), len(writes), created)
	fmt.Printf("%-22s %10s %10s %10s %10s\n", "", "p50", "p90", "p99", "max")
	for _, row := range []struct {
		name string
		p    pct
	}{{"all requests", a}, {"reads", rd}, {"task creations", wr}, {"bare net/http baseline", base}} {
		fmt.Printf("%-22s %10s %10s %10s %10s\n", row.name, ms(row.p.p50), ms(row.p.p90), ms(row.p.p99), ms(row.p.max))
	}
	ratio := 0.0
	if base.p99 > 0 {
		ratio = float64(a.p99) / float64(base.p99)
	}
	fmt.Printf("p99 daemon/baseline: %.1fx   errors: %d   lost tasks: %d   duplicated tasks: %d\n", ratio, errs, lost, dup)
	ok := a.p99 < maxP99 && errs == 0 && lost == 0 && dup == 0
	if !ok {
		fmt.Printf("FAIL: want p99 < %v, 0 errors, 0 lost, 0 duplicated\n", maxP99)
	}
	return ok
}
