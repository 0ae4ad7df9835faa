//go:build unix

package ship_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
	"github.com/warden-dev/warden/internal/testenv"
)

// outage is how long PostgreSQL stays down while hooks fire (the issue's
// figure).
const outage = 30 * time.Second

// TestOutageHooksSpoolAndDrainInOrder is the outage test: a real
// keeper (`warden-core keeper`, the binary hooks start) holds the local
// store, `warden hook` processes of three sessions fire throughout, and
// the test's own PostgreSQL server is stopped for 30 s. Hooks must keep
// answering (allow, exit 0, no error recorded) while the local store
// grows; `warden doctor` must say the shared store is unreachable and how
// much waits; after the restart every event must arrive exactly once, in
// order per session, with the shared audit chain intact.
func TestOutageHooksSpoolAndDrainInOrder(t *testing.T) {
	t.Parallel()
	srv := testenv.NewPostgres(t) // ours: stopping it disturbs no other test
	url := testenv.CreateDatabase(t, srv.URL("postgres"))
	h := newHome(t, url)
	h.startKeeper(t)

	f := h.fire(t, "s1", "s2", "s3")
	ctx := context.Background()
	shared, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	// Shipping works before the outage.
	testenv.WaitFor(t, 20*time.Second, "the first events in PostgreSQL", func() bool { return countShared(t, shared) >= 6 })
	shared.Close()

	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	down := time.Now()
	before := f.total()
	// Half-way, doctor says what is going on.
	time.Sleep(outage / 2)
	rep := h.doctor(t)
	chk := rep["shared store"]
	if chk.Level != "warn" || !strings.Contains(chk.Detail, "cannot reach PostgreSQL") ||
		!strings.Contains(chk.Detail, "waiting to be shipped") {
		t.Errorf("doctor during the outage: %+v", chk)
	}
	time.Sleep(outage - time.Since(down))
	during := f.total() - before
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	up := time.Now()
	time.Sleep(time.Second) // hooks fire while it comes back too
	f.stop(t)
	if during < 30 {
		t.Fatalf("only %d hooks ran during the %v outage: hooks waited on something", during, outage)
	}
	t.Logf("%d hooks during the outage; hook wall time before/during/after: %s", during, f.latencies(down, down.Add(outage)))

	local := h.localEvents(t)
	if len(local) != f.total() {
		t.Fatalf("the local store holds %d events, %d hooks ran", len(local), f.total())
	}
	for _, e := range local {
		if e.Error != "" || e.Decision != "allow" {
			t.Fatalf("hook recorded a failure during the outage: %+v", e)
		}
	}
	shared, err = postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer shared.Close()
	testenv.WaitFor(t, 30*time.Second, "every event in PostgreSQL after the restart", func() bool {
		return countShared(t, shared) >= len(local)
	})
	t.Logf("%d events in PostgreSQL %.1f s after it came back", len(local), time.Since(up).Seconds())
	got, err := shared.Events(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(local) {
		t.Fatalf("PostgreSQL holds %d events, the local store %d", len(got), len(local))
	}
	// Local id order is the order hooks recorded in, so every session's
	// events are in order too; checked per session by their sequence.
	last := map[string]int{}
	for i := range local {
		if got[i].ToolUseID != local[i].ToolUseID || got[i].SessionID != local[i].SessionID || !got[i].Time.Equal(local[i].Time) {
			t.Fatalf("event %d: PostgreSQL has %s/%s, the local store %s/%s", i, got[i].SessionID, got[i].ToolUseID, local[i].SessionID, local[i].ToolUseID)
		}
		var sid string
		var seq int
		fmt.Sscanf(strings.ReplaceAll(got[i].ToolUseID, "_", " "), "toolu %s %d", &sid, &seq)
		if seq != last[sid]+1 {
			t.Fatalf("session %s: call %d follows call %d", sid, seq, last[sid])
		}
		last[sid] = seq
	}
	n, brk, err := shared.VerifyChain(ctx)
	if err != nil || brk != nil || n != int64(len(local)) {
		t.Fatalf("shared audit chain: %d rows, break %+v, %v", n, brk, err)
	}
	rep = h.doctor(t)
	if chk := rep["shared store"]; chk.Level != "ok" || !strings.Contains(chk.Detail, "nothing waiting") {
		t.Errorf("doctor after the drain: %+v", chk)
	}
}

// `warden ship --once` drains the spool by hand and `--status` says in one
// line why a shared store cannot be used: here, a database that does not
// exist.
func TestShipCommand(t *testing.T) {
	t.Parallel()
	url := testenv.Postgres(t)
	h := newHome(t, url)
	h.env = append(h.env, "WARDEN_KEEPER=off") // no keeper, no shipper: the spool waits for the command
	for i := 1; i <= 7; i++ {
		if out, err := h.hook("s", i); err != nil || len(out) > 0 {
			t.Fatalf("hook %d: %v %s", i, err, out)
		}
	}
	status := func(env ...string) (rep struct {
		Reachable bool   `json:"reachable"`
		Error     string `json:"error"`
		Backlog   int64  `json:"backlog"`
	}) {
		t.Helper()
		out, err := h.run(env, "ship", "--status", "--json")
		if err != nil || json.Unmarshal(out, &rep) != nil {
			t.Fatalf("warden ship --status --json: %v\n%s", err, out)
		}
		return rep
	}
	if r := status(); !r.Reachable || r.Backlog != 7 {
		t.Fatalf("before shipping: %+v", r)
	}
	out, err := h.run(nil, "ship", "--once")
	if err != nil || !strings.Contains(string(out), "shipped 7 event(s)") {
		t.Fatalf("warden ship --once: %v\n%s", err, out)
	}
	if r := status(); !r.Reachable || r.Backlog != 0 {
		t.Fatalf("after shipping: %+v", r)
	}
	missing := strings.Replace(url, "/warden_test_", "/nope_", 1)
	r := status("WARDEN_DATABASE_URL=" + missing)
	if r.Reachable || !strings.Contains(r.Error, "has no database") || strings.Contains(r.Error, "\n") {
		t.Fatalf("a missing database: %+v", r)
	}
}

// A shipper process killed (SIGKILL) at random points — mid-batch, after a
// commit and before its mark, anywhere — and started again leaves every
// event in the shared store exactly once, in order. (Where exactly the
// kills land is luck; TestCrashBetweenSendAndMarkDuplicatesNothing puts
// the mark back deterministically.)
func TestShipperKilledRepeatedly(t *testing.T) {
	t.Parallel()
	url := testenv.Postgres(t)
	h := newHome(t, url)
	st, err := sqlite.Open(context.Background(), filepath.Join(h.dir, ".warden", "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	const n = 3000
	for i := 1; i <= n; i++ {
		ev := &store.Event{SessionID: fmt.Sprintf("s%d", i%4), Event: "PreToolUse", Tool: "Bash", ToolUseID: fmt.Sprintf("toolu_%d", i)}
		if err := st.RecordHook(context.Background(), ev, nil); err != nil {
			t.Fatal(err)
		}
	}
	local, _ := st.Events(context.Background(), store.Filter{})
	st.Close()
	helperBin := filepath.Join(filepath.Dir(h.core), "warden-helper")
	shared, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer shared.Close()
	var progress []int
	for round := range 5 {
		cmd := exec.Command(helperBin, "ship")
		cmd.Env, cmd.Dir = h.env, h.proj
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill it while it ships: once a batch has landed, a little later
		// (or at once when earlier rounds shipped everything: a fast
		// machine ships several batches before a kill lands).
		before := countShared(t, shared)
		testenv.WaitFor(t, 20*time.Second, "a batch shipped", func() bool { return before == n || countShared(t, shared) > before })
		time.Sleep(time.Duration(round*13) * time.Millisecond)
		cmd.Process.Kill()
		cmd.Wait()
		progress = append(progress, countShared(t, shared))
	}
	t.Logf("events in PostgreSQL after each kill: %v of %d", progress, n)
	if out, err := h.run(nil, "ship", "--once"); err != nil {
		t.Fatalf("warden ship --once: %v\n%s", err, out)
	}
	got, err := shared.Events(context.Background(), store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n {
		t.Fatalf("PostgreSQL holds %d events, want %d", len(got), n)
	}
	for i := range got {
		if got[i].ToolUseID != local[i].ToolUseID {
			t.Fatalf("event %d is %s, want %s", i, got[i].ToolUseID, local[i].ToolUseID)
		}
	}
	if c, brk, err := shared.VerifyChain(context.Background()); err != nil || brk != nil || c != n {
		t.Fatalf("shared chain: %d, %+v, %v", c, brk, err)
	}
}

// run runs warden with extra environment (later entries win).
func (h *home) run(env []string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.front, args...)
	cmd.Env, cmd.Dir = append(slices.Clone(h.env), env...), h.proj
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		err = fmt.Errorf("%v: %s", err, ee.Stderr)
	}
	return out, err
}

// home is an isolated warden home whose config points at a shared store.
type home struct {
	dir, proj, front, core string
	env                    []string
}

func newHome(t *testing.T, url string) *home {
	t.Helper()
	bins := testenv.Binaries(t, "warden", "warden-helper")
	h := &home{dir: t.TempDir(), proj: t.TempDir(), front: filepath.Join(bins, "warden"), core: filepath.Join(bins, "warden-core")}
	h.env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + h.dir, "WARDEN_HOME=" + filepath.Join(h.dir, ".warden"),
		"CLAUDE_CONFIG_DIR=" + filepath.Join(h.dir, ".claude"), "WARDEN_DATABASE_URL=" + url,
	}
	sqlitetest.Create(t, filepath.Join(h.dir, ".warden", "warden.db"))
	return h
}

// startKeeper runs the keeper as the test's child with extra arguments,
// and waits until it answers hooks.
func (h *home) startKeeper(t *testing.T, args ...string) *testenv.Keeper {
	t.Helper()
	return testenv.StartKeeper(t, h.core, filepath.Join(h.dir, ".warden"), h.env, args...)
}

// firing runs hooks of several sessions, each session one at a time, as
// Claude Code does for sequential tool calls.
type firing struct {
	mu    sync.Mutex
	n     int
	times []sample
	errs  []string
	quit  chan struct{}
	wg    sync.WaitGroup
}

type sample struct {
	at time.Time
	d  time.Duration
}

func (h *home) fire(t *testing.T, sessions ...string) *firing {
	f := &firing{quit: make(chan struct{})}
	for _, sid := range sessions {
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			for seq := 1; ; seq++ {
				select {
				case <-f.quit:
					return
				case <-time.After(40 * time.Millisecond):
				}
				start := time.Now()
				out, err := h.hook(sid, seq)
				d := time.Since(start)
				f.mu.Lock()
				f.n++
				f.times = append(f.times, sample{start, d})
				if err != nil || len(out) > 0 {
					f.errs = append(f.errs, fmt.Sprintf("%s call %d: %v: %s", sid, seq, err, out))
				}
				f.mu.Unlock()
			}
		}()
	}
	t.Cleanup(func() {
		select {
		case <-f.quit:
		default:
			close(f.quit)
		}
		f.wg.Wait()
	})
	return f
}

func (f *firing) total() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n
}

func (f *firing) stop(t *testing.T) {
	t.Helper()
	close(f.quit)
	f.wg.Wait()
	if len(f.errs) > 0 {
		t.Fatalf("%d hooks did not allow silently, first: %s", len(f.errs), f.errs[0])
	}
}

// latencies gives the median hook wall time before, during and after the
// outage, for the log (never asserted: times swing with the machine).
func (f *firing) latencies(from, to time.Time) string {
	var parts [3][]time.Duration
	for _, s := range f.times {
		i := 1
		if s.at.Before(from) {
			i = 0
		} else if s.at.After(to) {
			i = 2
		}
		parts[i] = append(parts[i], s.d)
	}
	var out []string
	for _, p := range parts {
		out = append(out, median(p).Round(100*time.Microsecond).String())
	}
	return strings.Join(out, " / ")
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// hook runs one PreToolUse through `warden hook`; an allow prints nothing.
func (h *home) hook(sid string, seq int) ([]byte, error) {
	payload, _ := json.Marshal(map[string]any{
		"session_id": sid, "transcript_path": "", "cwd": h.proj, "hook_event_name": "PreToolUse",
		"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"},
		"tool_use_id": fmt.Sprintf("toolu_%s_%d", sid, seq),
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.front, "hook", "--harness", "claude")
	cmd.Env, cmd.Dir, cmd.Stdin = h.env, h.proj, bytes.NewReader(payload)
	return cmd.CombinedOutput()
}

type check struct {
	Level  string `json:"level"`
	Detail string `json:"detail"`
	Fix    string `json:"fix"`
}

// doctor runs `warden doctor --json` and returns its checks by name.
func (h *home) doctor(t *testing.T) map[string]check {
	t.Helper()
	cmd := exec.Command(h.front, "doctor", "--json")
	cmd.Env, cmd.Dir = h.env, h.proj
	out, _ := cmd.Output() // exit 1 when something unrelated is missing here
	var rep struct {
		Checks []struct {
			Name string `json:"name"`
			check
		} `json:"checks"`
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("warden doctor --json: %v\n%s", err, out)
	}
	m := map[string]check{}
	for _, c := range rep.Checks {
		m[c.Name] = c.check
	}
	return m
}

func (h *home) localEvents(t *testing.T) []store.Event {
	t.Helper()
	return sqlitetest.Events(t, filepath.Join(h.dir, ".warden", "warden.db"))
}

func countShared(t *testing.T, st *postgres.Store) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var n int
	if err := st.Pool().QueryRow(ctx, "SELECT count(*) FROM events").Scan(&n); err != nil {
		return -1
	}
	return n
}
