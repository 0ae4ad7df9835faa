// Command statusline-latency measures what one `warden statusline` process
// costs, from outside: spawn, start-up, decode, config, branch, render,
// exit. Claude Code runs the status line after every assistant message and
// on its refresh timer, so the bar is a median under 10 ms as a process.
//
// Variants, in rotating order each round (as bench/hook-latency does, so
// load drift hits all alike), all with the same stdin:
//   - statusline: a realistic payload below the context threshold, cwd in a
//     git repository (the branch is read from .git/HEAD);
//   - statusline-fired: above the threshold in a session whose handoff was
//     already spawned (the render reads the mark from the store, spawns
//     nothing);
//   - statusline in its own process: the first, with WARDEN_KEEPER=off, so
//     warden runs it in warden-core instead of handing it to the keeper
//     (the path before any hook has started a keeper);
//   - `warden --version`: warden-core's start-up with no work (the floor
//     any command the keeper does not answer pays: runtime, package inits,
//     page faults);
//   - /bin/true and a bare Go binary: the cost of any process / Go process.
//
// The statusline variants but the own-process one are answered by the
// store keeper, as in a session, where the first hook has started it: the
// bench starts it the same way, with one hook.
//
// Every warden run must exit 0 with nothing on stderr and a non-empty line.
// run.sh builds the binaries.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/warden-dev/warden/internal/store/keeper"
	"github.com/warden-dev/warden/internal/testenv"
)

type variant struct {
	name  string
	bin   string
	args  []string
	env   []string // added to the environment
	stdin []byte
	check bool
}

func main() {
	wardenBin := flag.String("warden", "", "warden binary (required)")
	bare := flag.String("bare", "", "bare Go binary (required)")
	rounds := flag.Int("rounds", 300, "measured rounds")
	warmup := flag.Int("warmup", 10, "discarded rounds")
	maxMedian := flag.Float64("max-median-ms", 0, "exit 1 if the statusline median exceeds this (0: no check)")
	asJSON := flag.Bool("json", false, "print JSON")
	flag.Parse()
	if *wardenBin == "" || *bare == "" {
		flag.Usage()
		testenv.Exit(2)
	}
	// A home of its own: never the developer's config, figures or PATH.
	defer testenv.Isolate()()
	tmp, err := os.MkdirTemp("", "statusline-bench-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(tmp)
	home := filepath.Join(tmp, "warden-home")
	proj := filepath.Join(tmp, "proj")
	must(os.MkdirAll(filepath.Join(proj, ".git"), 0o755))
	must(os.WriteFile(filepath.Join(proj, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
	os.Setenv("WARDEN_HOME", home)
	os.Setenv("COLUMNS", "120")
	os.Setenv("TERM", "xterm-256color")
	os.Unsetenv("CLAUDE_PROJECT_DIR")

	payload := func(sess string, pct float64) []byte {
		b, _ := json.Marshal(map[string]any{
			"session_id": sess, "transcript_path": filepath.Join(tmp, "t.jsonl"), "cwd": proj,
			"model":          map[string]any{"id": "claude-opus-4-1", "display_name": "Opus"},
			"workspace":      map[string]any{"current_dir": proj, "project_dir": proj},
			"version":        "2.1.330",
			"cost":           map[string]any{"total_cost_usd": 1.2345, "total_duration_ms": 45000},
			"context_window": map[string]any{"used_percentage": pct, "context_window_size": 200000},
			"rate_limits":    map[string]any{"five_hour": map[string]any{"used_percentage": 23.5, "resets_at": 1738425600}},
		})
		return b
	}
	// Fire the threshold once for "fired" so the measured renders only read
	// the mark; wait for the detached handoff to finish writing.
	fired := payload("bench-fired", 80)
	if out, err := runOnce(*wardenBin, []string{"statusline"}, fired); err != nil {
		fail(fmt.Errorf("priming render: %v (%s)", err, out))
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		m, _ := filepath.Glob(filepath.Join(proj, ".warden", "handoffs", "handoff-*.md"))
		if len(m) == 1 {
			break
		}
		if time.Now().After(deadline) {
			fail(fmt.Errorf("the detached handoff was not written (found %d)", len(m)))
		}
		time.Sleep(20 * time.Millisecond)
	}

	// A hook starts the keeper, as the first hook of a session does.
	lock := filepath.Join(home, "locks", "keeper.lock")
	defer keeper.Stop(lock, 10*time.Second)
	start := `{"session_id":"bench","cwd":"` + proj + `","hook_event_name":"SessionStart","source":"startup"}`
	if out, err := runOnce(*wardenBin, []string{"hook"}, []byte(start)); err != nil {
		fail(fmt.Errorf("hook to start the keeper: %v (%s)", err, out))
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("unix", filepath.Join(home, "run", "hook.sock")); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			fail(errors.New("no keeper answered after a hook (see internal/store/keeper)"))
		}
	}

	vs := []variant{
		{name: "warden statusline", bin: *wardenBin, args: []string{"statusline"}, stdin: payload("bench", 42), check: true},
		{name: "warden statusline (fired)", bin: *wardenBin, args: []string{"statusline"}, stdin: fired, check: true},
		{name: "statusline, own process", bin: *wardenBin, args: []string{"statusline"}, env: []string{"WARDEN_KEEPER=off"}, stdin: payload("bench", 42), check: true},
		{name: "warden --version", bin: *wardenBin, args: []string{"--version"}, stdin: payload("bench", 42)},
		{name: "/bin/true", bin: "/bin/true", stdin: payload("bench", 42)},
		{name: "bare Go", bin: *bare, stdin: payload("bench", 42)},
	}
	times := make([][]float64, len(vs))
	for r := 0; r < *warmup+*rounds; r++ {
		for k := range vs {
			i := (r + k) % len(vs)
			d, err := spawn(vs[i])
			if err != nil {
				fail(fmt.Errorf("%s: %v", vs[i].name, err))
			}
			if r >= *warmup {
				times[i] = append(times[i], float64(d.Microseconds())/1000)
			}
		}
	}
	// Still exactly one handoff: the fired renders never spawned again.
	if m, _ := filepath.Glob(filepath.Join(proj, ".warden", "handoffs", "handoff-*.md")); len(m) != 1 {
		fail(fmt.Errorf("%d handoffs after %d renders above the threshold, want 1", len(m), *rounds+*warmup))
	}

	type row struct {
		Name             string  `json:"name"`
		Median, P90, P99 float64 `json:"-"`
		MedianMS         float64 `json:"median_ms"`
		P90MS            float64 `json:"p90_ms"`
		P99MS            float64 `json:"p99_ms"`
	}
	var rows []row
	for i, v := range vs {
		s := slices.Clone(times[i])
		slices.Sort(s)
		q := func(p float64) float64 { return s[int(p*float64(len(s)-1))] }
		rows = append(rows, row{Name: v.name, MedianMS: q(0.5), P90MS: q(0.9), P99MS: q(0.99)})
	}
	if *asJSON {
		json.NewEncoder(os.Stdout).Encode(rows)
	} else {
		fmt.Printf("%d rounds (+%d warm-up), every variant once per round, rotating order\n\n", *rounds, *warmup)
		fmt.Printf("%-28s %9s %9s %9s\n", "", "median", "p90", "p99")
		for _, r := range rows {
			fmt.Printf("%-28s %7.2f ms %6.2f ms %6.2f ms\n", r.Name, r.MedianMS, r.P90MS, r.P99MS)
		}
		fmt.Printf("\nstatusline/bare Go = %.1fx, statusline/true = %.1fx (own process: %.1fx bare Go)\n",
			rows[0].MedianMS/rows[5].MedianMS, rows[0].MedianMS/rows[4].MedianMS, rows[2].MedianMS/rows[5].MedianMS)
	}
	if *maxMedian > 0 && (rows[0].MedianMS > *maxMedian || rows[1].MedianMS > *maxMedian) {
		fmt.Fprintf(os.Stderr, "statusline median over %.1f ms\n", *maxMedian)
		testenv.Exit(1)
	}
}

func spawn(v variant) (time.Duration, error) {
	cmd := exec.Command(v.bin, v.args...)
	if len(v.env) > 0 {
		cmd.Env = append(os.Environ(), v.env...)
	}
	cmd.Stdin = bytes.NewReader(v.stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		return d, err
	}
	if v.check && (errb.Len() > 0 || len(bytes.TrimSpace(out.Bytes())) == 0) {
		return d, fmt.Errorf("stderr %q, stdout %q", errb.String(), out.String())
	}
	return d, nil
}

func runOnce(bin string, args []string, stdin []byte) (string, error) {
	cmd := exec.Command(bin, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func must(err error) {
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "statusline-latency:", err)
	testenv.Exit(2)
}
