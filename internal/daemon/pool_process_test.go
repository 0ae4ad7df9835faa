//go:build linux

package daemon_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/daemon"
	"github.com/warden-dev/warden/internal/hookwire/settle"
	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/task"
	"github.com/warden-dev/warden/internal/testenv"
)

// poolClaude is the workers' `claude`: it appends "task system pid" to
// the run log shared by every worker (one short O_APPEND write per run:
// lines never interleave), then waits for its release file when the
// prompt starts with "wait", and prints a result.
const poolClaude = `#!/bin/sh
echo "$WARDEN_TASK_ID $FAKE_SYSTEM $$" >> "$FAKE_LOG"
case "$(cat)" in
  wait*) while [ ! -e "$FAKE_RELEASE/$WARDEN_TASK_ID" ]; do sleep 0.05; done ;;
esac
printf '{"type":"result","is_error":false,"result":"done %s"}\n' "$WARDEN_TASK_ID"
`

// poolRig is several `warden serve` processes, each with its own warden
// home (its own local SQLite store, hooks, keeper lock), sharing one
// PostgreSQL database.
type poolRig struct {
	t                            *testing.T
	url, bin, log, release, proj string
	st                           *postgres.Store
	workers                      map[string]*poolWorker
}

type poolWorker struct {
	name, home string
	env        []string
	cmd        *exec.Cmd
}

func newPoolRig(t *testing.T) *poolRig {
	t.Helper()
	r := &poolRig{t: t, url: testenv.Postgres(t), bin: testenv.Binaries(t, "warden", "warden-helper"),
		release: t.TempDir(), proj: t.TempDir(), workers: map[string]*poolWorker{}}
	dir := t.TempDir()
	r.log = filepath.Join(dir, "runs.log")
	st, err := postgres.Open(context.Background(), r.url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r.st = st
	return r
}

// start runs worker name (serve.system = name) and waits for its API.
func (r *poolRig) start(name string, maxAgents int) *poolWorker {
	r.t.Helper()
	w := r.workers[name]
	if w == nil {
		w = &poolWorker{name: name, home: r.t.TempDir()}
		claude := filepath.Join(w.home, "claude")
		if err := os.WriteFile(claude, []byte(poolClaude), 0o755); err != nil {
			r.t.Fatal(err)
		}
		cfg := fmt.Sprintf("[serve]\nsystem = %q\nmax_agents = %d\nqueue_size = 5000\nclaude_command = %q\n\n[agent]\nrunner = \"claude-p\"\n", name, maxAgents, claude)
		if err := os.WriteFile(filepath.Join(w.home, "config.toml"), []byte(cfg), 0o600); err != nil {
			r.t.Fatal(err)
		}
		w.env = append(testenv.EnvWithout("WARDEN_", "CLAUDE_PROJECT_DIR"), "WARDEN_HOME="+w.home, "WARDEN_DATABASE_URL="+r.url, "FAKE_LOG="+r.log,
			"FAKE_RELEASE="+r.release, "FAKE_SYSTEM="+name)
		r.workers[name] = w
	}
	cmd := exec.Command(filepath.Join(r.bin, "warden"), "serve", "--addr", "127.0.0.1:0")
	cmd.Env = w.env
	out, _ := os.OpenFile(filepath.Join(w.home, "serve.out"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	w.cmd = cmd
	r.t.Cleanup(func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() })
	r.waitFor("worker "+name+"'s API", 30*time.Second, func() bool {
		st, err := daemon.ReadState(filepath.Join(w.home, "run", "serve.json"))
		return err == nil && st.PID == cmd.Process.Pid
	})
	return w
}

func (r *poolRig) waitFor(what string, limit time.Duration, cond func() bool) {
	r.t.Helper()
	testenv.WaitFor(r.t, limit, what, cond, func() string {
		counts, _ := r.st.CountTasks(context.Background())
		b := fmt.Sprintf("tasks %v\n", counts)
		for _, w := range r.workers {
			out, _ := os.ReadFile(filepath.Join(w.home, "serve.out"))
			lg, _ := os.ReadFile(filepath.Join(w.home, "logs", "daemon.log"))
			b += fmt.Sprintf("--- worker %s output:\n%s\nlog (tail):\n%s\n", w.name, out, tail(string(lg), 30))
		}
		return b
	})
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// add queues a task straight into the shared store, as any worker's API
// would (the store NOTIFYs the workers).
func (r *poolRig) add(prompt, system string) string {
	r.t.Helper()
	now := time.Now().UTC()
	tk := &task.Task{ID: task.NewID(now), Project: r.proj, Prompt: prompt, Status: task.Queued, Source: "test",
		System: system, CreatedAt: now, UpdatedAt: now}
	if _, _, err := r.st.CreateTask(context.Background(), tk, 0); err != nil {
		r.t.Fatal(err)
	}
	return tk.ID
}

// runs reads the run log: task id → the systems that ran it, in order.
func (r *poolRig) runs() map[string][]string {
	r.t.Helper()
	f, err := os.Open(r.log)
	if os.IsNotExist(err) {
		return map[string][]string{}
	}
	if err != nil {
		r.t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 3 {
			r.t.Fatalf("run log line %q: want task, system, pid", sc.Text())
		}
		out[fs[0]] = append(out[fs[0]], fs[1])
	}
	return out
}

func (r *poolRig) counts() map[task.Status]int {
	r.t.Helper()
	c, err := r.st.CountTasks(context.Background())
	if err != nil {
		r.t.Fatal(err)
	}
	return c
}

// TestPoolRunsEveryTaskOnce: three `warden serve` workers on one
// PostgreSQL queue, 1,000 tasks of which 150 are pinned to one worker or
// another: every task runs exactly once (the fake claude's own log and
// the store agree), pinned tasks only on their system, and every worker
// took a share.
func TestPoolRunsEveryTaskOnce(t *testing.T) {
	r := newPoolRig(t)
	names := []string{"w1", "w2", "w3"}
	for _, n := range names {
		r.start(n, 6)
	}
	pinned := map[string]string{}
	var ids []string
	// Queue from several goroutines at once, as several API callers would.
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 250 {
				sys := ""
				if i%5 == 0 && i < 190 { // 38 per goroutine: 152 pinned
					sys = names[(g+i)%3]
				}
				id := r.add(fmt.Sprintf("task %d/%d", g, i), sys)
				mu.Lock()
				ids = append(ids, id)
				if sys != "" {
					pinned[id] = sys
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	r.waitFor("1,000 tasks done", 5*time.Minute, func() bool { return r.counts()[task.Done] == len(ids) })

	runs := r.runs()
	if len(runs) != len(ids) {
		t.Errorf("the fake claude ran %d distinct tasks; want %d", len(runs), len(ids))
	}
	share := map[string]int{}
	for _, id := range ids {
		sys := runs[id]
		if len(sys) != 1 {
			t.Errorf("task %s ran %d times (on %v); want exactly once", id, len(sys), sys)
			continue
		}
		share[sys[0]]++
		if want := pinned[id]; want != "" && sys[0] != want {
			t.Errorf("task %s is pinned to %s but ran on %s", id, want, sys[0])
		}
	}
	for _, n := range names {
		if share[n] == 0 {
			t.Errorf("worker %s ran no task (shares %v)", n, share)
		}
	}
	// The store agrees: one claim each, by the worker that ran it.
	all, err := r.st.Tasks(context.Background(), task.Filter{Limit: 5000})
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range all {
		if tk.Status != task.Done || tk.Attempts != 1 {
			t.Errorf("task %s: %s after %d attempts; want done after 1", tk.ID, tk.Status, tk.Attempts)
		}
		if sys := runs[tk.ID]; len(sys) == 1 && !strings.HasPrefix(tk.Owner, sys[0]+":") {
			t.Errorf("task %s ran on %s but the store says %s claimed it", tk.ID, sys[0], tk.Owner)
		}
	}
	t.Logf("1,000 tasks on 3 workers: shares %v, %d pinned", share, len(pinned))

	// /api/systems on any worker lists the three.
	cmd := exec.Command(filepath.Join(r.bin, "warden"), "serve", "status", "--json")
	cmd.Env = r.workers["w2"].env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("serve status: %v\n%s", err, out)
	}
	var st struct {
		Systems []struct {
			Name  string `json:"name"`
			Self  bool   `json:"self"`
			Stale bool   `json:"stale"`
		} `json:"systems"`
	}
	if err := json.Unmarshal(out, &st); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	seen := map[string]bool{}
	for _, s := range st.Systems {
		seen[s.Name] = !s.Stale
	}
	if len(st.Systems) != 3 || !st.Systems[0].Self || st.Systems[0].Name != "w2" || !seen["w1"] || !seen["w2"] || !seen["w3"] {
		t.Errorf("serve status --json on w2: %s; want w2 (self) first, then w1 and w3, none stale", out)
	}

	// Tokens live where the API checks them: one made with `warden token
	// create` on w1 (warden-core hands it to warden-helper, which writes
	// the shared store) opens w2's API; revoked, it opens nothing.
	tc := exec.Command(filepath.Join(r.bin, "warden"), "token", "create", "--json", "grafana")
	tc.Env = r.workers["w1"].env
	out, err = tc.CombinedOutput()
	var made struct{ Token string }
	if err != nil || json.Unmarshal(out, &made) != nil || made.Token == "" {
		t.Fatalf("token create on w1: %v\n%s", err, out)
	}
	w2, err := daemon.ReadState(filepath.Join(r.workers["w2"].home, "run", "serve.json"))
	if err != nil {
		t.Fatal(err)
	}
	status := func() int {
		req, _ := http.NewRequest("GET", w2.URL+"/api/systems", nil)
		req.Header.Set("Authorization", "Bearer "+made.Token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := status(); code != 200 {
		t.Errorf("w2's API with the token made on w1: %d; want 200", code)
	}
	tr := exec.Command(filepath.Join(r.bin, "warden"), "token", "revoke", "grafana")
	tr.Env = r.workers["w3"].env
	if out, err := tr.CombinedOutput(); err != nil || !strings.Contains(string(out), "revoked 1 token") {
		t.Errorf("token revoke on w3: %v\n%s", err, out)
	}
	if code := status(); code != 401 {
		t.Errorf("w2's API with the revoked token: %d; want 401", code)
	}

	// One pacing ledger: figures a status line recorded in w1's local
	// store reach the shared store and w3's local store.
	l1 := r.local("w1")
	u := 37.5
	at := time.Now().UTC().Truncate(time.Millisecond)
	if _, err := l1.AddSnapshot(context.Background(), &quota.Snapshot{Time: at, Source: quota.SourceStatusline, FiveHour: quota.Window{Util: &u}}); err != nil {
		t.Fatal(err)
	}
	l3 := r.local("w3")
	for _, s := range []quota.Store{r.st, l3} {
		r.waitFor("w1's status-line figures in the pool's ledger and w3's", 20*time.Second, func() bool {
			got, err := s.LatestSnapshot(context.Background(), quota.SourceStatusline)
			return err == nil && got != nil && got.Time.Equal(at) && got.FiveHour.Util != nil && *got.FiveHour.Util == u
		})
	}
}

// local opens worker name's local SQLite store.
func (r *poolRig) local(name string) *sqlite.Store {
	r.t.Helper()
	settle.Wait(r.workers[name].home, 10*time.Second) // the hook server records after it answers
	st, err := sqlite.Open(context.Background(), filepath.Join(r.workers[name].home, "warden.db"))
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { st.Close() })
	return st
}

// TestPoolRecoversAKilledWorkersTasks: three workers with two slots each
// run six waiting tasks; worker w2 is killed (kill -9, its agents die
// with it). Once it has missed its heartbeats the others queue its two
// tasks again and run them (attempt 2) — nothing lost, nothing else run
// twice — while a task pinned to w2 waits for w2, which runs it when it
// comes back.
func TestPoolRecoversAKilledWorkersTasks(t *testing.T) {
	r := newPoolRig(t)
	for _, n := range []string{"w1", "w2", "w3"} {
		r.start(n, 2)
	}
	var ids []string
	for i := range 6 {
		ids = append(ids, r.add(fmt.Sprintf("wait %d", i), ""))
	}
	r.waitFor("six agents running", time.Minute, func() bool { return len(r.runs()) == 6 && r.counts()[task.Running] == 6 })
	var victims []string
	for id, sys := range r.runs() {
		if sys[0] == "w2" {
			victims = append(victims, id)
		}
	}
	if len(victims) != 2 {
		t.Fatalf("w2 runs %v; want two of the six tasks (two slots per worker)", victims)
	}
	w2 := r.workers["w2"]
	w2.cmd.Process.Kill()
	w2.cmd.Wait()
	// Pinned through the CLI of another worker.
	add := exec.Command(filepath.Join(r.bin, "warden"), "task", "add", "-C", r.proj, "--system", "w2", "pinned to w2")
	add.Env = r.workers["w3"].env
	out, err := add.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "queued (priority 0, on system w2)") {
		t.Fatalf("task add --system w2: %v\n%s", err, out)
	}
	pin := strings.Fields(string(out))[0]

	// The others requeue w2's tasks once its row is stale.
	r.waitFor("w2's tasks queued again", time.Minute, func() bool {
		for _, id := range victims {
			tk, err := r.st.Task(context.Background(), id)
			if err != nil || tk.Status != task.Queued {
				return false
			}
		}
		return true
	})
	cmd := exec.Command(filepath.Join(r.bin, "warden"), "serve", "status")
	cmd.Env = r.workers["w1"].env
	out, _ = cmd.CombinedOutput()
	if !strings.Contains(string(out), "worker w2 on") || !strings.Contains(string(out), "STALE") {
		t.Errorf("serve status on w1 does not show w2 stale:\n%s", out)
	}
	for _, id := range ids {
		os.WriteFile(filepath.Join(r.release, id), nil, 0o600)
	}
	r.waitFor("the six tasks done", time.Minute, func() bool { return r.counts()[task.Done] == 6 })
	if tk, _ := r.st.Task(context.Background(), pin); tk.Status != task.Queued {
		t.Errorf("the task pinned to w2 is %s while w2 is down; want queued", tk.Status)
	}
	runs := r.runs()
	for _, id := range ids {
		tk, err := r.st.Task(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		victim := id == victims[0] || id == victims[1]
		switch {
		case victim && (len(runs[id]) != 2 || runs[id][0] != "w2" || runs[id][1] == "w2" || tk.Attempts != 2):
			t.Errorf("w2's task %s ran on %v after %d attempts; want w2, then another worker, 2 attempts", id, runs[id], tk.Attempts)
		case !victim && (len(runs[id]) != 1 || tk.Attempts != 1):
			t.Errorf("task %s ran on %v after %d attempts; want once", id, runs[id], tk.Attempts)
		}
		if victim {
			h, _ := r.st.History(context.Background(), id)
			var story []string
			for _, x := range h {
				story = append(story, x.Reason)
			}
			if !strings.Contains(strings.Join(story, "\n"), "worker w2:"+fmt.Sprint(w2.cmd.Process.Pid)+" is gone (no heartbeat) while the task was running (attempt 1 of 3); its agent is gone: queued again") {
				t.Errorf("task %s's history does not say why it was queued again:\n%s", id, strings.Join(story, "\n"))
			}
		}
	}

	// w2 comes back and runs its pinned task.
	r.start("w2", 2)
	r.waitFor("the pinned task done", time.Minute, func() bool {
		tk, _ := r.st.Task(context.Background(), pin)
		return tk.Status == task.Done
	})
	if got := r.runs()[pin]; len(got) != 1 || got[0] != "w2" {
		t.Errorf("the pinned task ran on %v; want w2 once", got)
	}
}
