package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/warden-dev/warden/internal/hookserve"
)

// The parallel mode: Claude Code fires the hooks of parallel tool calls in
// parallel, so N PreToolUse hooks of one session start at once. Each round
// starts N `warden hook` processes together and waits for all, then N bare
// Go processes together (the order alternates per round), so both meet the
// same contention for the CPUs; every process's wall time is one sample.
// The keeper's declines (hookserve.DeclineSetting) are counted across the
// phase: a declined hook runs in warden-core, far slower, so the target is
// none.

// ParallelPhase is one concurrency level, as --json prints it.
type ParallelPhase struct {
	Callers   int     `json:"callers"`
	Rounds    int     `json:"rounds"`
	Warden    Summary `json:"warden"`
	Bare      Summary `json:"bare_go"`
	RatioP50  float64 `json:"ratio_p50"`
	RatioP99  float64 `json:"ratio_p99"`
	Declines  int64   `json:"declines"`
	RowsAdded int     `json:"rows_added"`
}

// parseLevels reads -parallel ("4,8"; "" for none).
func parseLevels(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 || n > 64 {
			return nil, fmt.Errorf("-parallel: %q is not a number of callers between 1 and 64", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// parallelPhase measures n concurrent callers for rounds rounds (after
// warmup), with the keeper answering.
func (b *bench) parallelPhase(o options, wardenBin string, n int) (*ParallelPhase, error) {
	dir, err := os.MkdirTemp("", "hook-parallel-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	stdins := make([]*os.File, n)
	for i := range stdins {
		if stdins[i], err = os.Create(filepath.Join(dir, fmt.Sprintf("payload-%d.json", i))); err != nil {
			return nil, err
		}
		defer stdins[i].Close()
	}
	before, _, err := b.countRows(nil)
	if err != nil {
		return nil, err
	}
	declinesBefore, err := b.declines()
	if err != nil {
		return nil, err
	}
	var wardenMS, bareMS []float64
	runs := 0
	wardenV := variant{path: wardenBin, args: []string{"hook", "--harness", "claude"}, warden: true, event: preToolUse}
	bareV := variant{path: o.bare}
	for r := 0; r < o.warmup+o.parallelRounds; r++ {
		order := []bool{true, false}
		if r%2 == 1 {
			order = []bool{false, true}
		}
		for _, w := range order {
			v := bareV
			if w {
				v = wardenV
				for i := range stdins {
					b.seq++
					p := b.payload(preToolUse)
					if _, err := stdins[i].WriteAt(p, 0); err != nil {
						return nil, err
					}
					if err := stdins[i].Truncate(int64(len(p))); err != nil {
						return nil, err
					}
				}
				runs += n
			}
			ds, err := b.burst(v, stdins)
			if err != nil {
				return nil, errors.Join(fmt.Errorf("%d callers: %s: %w", n, v.path, err), b.stderrEmpty())
			}
			if r < o.warmup {
				continue
			}
			for _, d := range ds {
				ms := float64(d.Microseconds()) / 1000
				if w {
					wardenMS = append(wardenMS, ms)
				} else {
					bareMS = append(bareMS, ms)
				}
			}
		}
	}
	if err := b.stderrEmpty(); err != nil {
		return nil, err
	}
	after, bad, err := b.settledRows(nil, before+runs)
	if err != nil {
		return nil, err
	}
	declinesAfter, err := b.declines()
	if err != nil {
		return nil, err
	}
	p := &ParallelPhase{Callers: n, Rounds: o.parallelRounds, RowsAdded: after - before, Declines: declinesAfter - declinesBefore}
	if p.RowsAdded != runs {
		return nil, fmt.Errorf("%d callers: %d warden runs added %d rows", n, runs, p.RowsAdded)
	}
	if bad > 0 {
		return nil, fmt.Errorf("%d callers: %d rows are not a clean allow", n, bad)
	}
	p.Warden, p.Bare = summarize("warden hook", wardenMS), summarize("bare Go", bareMS)
	p.RatioP50, p.RatioP99 = p.Warden.Median/p.Bare.Median, p.Warden.P99/p.Bare.P99
	return p, nil
}

// burst starts one process of v per stdin at once and returns each one's
// wall time (from the common start to its own end).
func (b *bench) burst(v variant, stdins []*os.File) ([]time.Duration, error) {
	cmds := make([]*exec.Cmd, len(stdins))
	for i, in := range stdins {
		if _, err := in.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		cmd := exec.Command(v.path, v.args...)
		cmd.Env, cmd.Dir = b.env, b.dir
		cmd.Stdin, cmd.Stdout, cmd.Stderr = in, claudeStdout, b.stderr
		cmds[i] = cmd
	}
	out := make([]time.Duration, len(cmds))
	errs := make([]error, len(cmds))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, cmd := range cmds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i], errs[i] = runBounded(cmd)
		}()
	}
	close(start)
	wg.Wait()
	return out, errors.Join(errs...)
}

// declines is the keeper's decline count in the store.
func (b *bench) declines() (int64, error) {
	db, conn, err := openDB(b.db)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	defer conn.Close()
	var v string
	err = conn.QueryRowContext(context.Background(), `SELECT value FROM settings WHERE key = ?`, hookserve.DeclineSetting).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n, _, _ := hookserve.ParseDeclines(v)
	return n, nil
}

func printParallel(w io.Writer, ps []ParallelPhase) {
	if len(ps) == 0 {
		return
	}
	fmt.Fprintf(w, "\nparallel PreToolUse (one session), with the store keeper: N callers started together per round\n")
	fmt.Fprintf(w, "  %-8s %-12s %9s %9s %9s\n", "callers", "ms", "median", "p90", "p99")
	for _, p := range ps {
		for _, s := range []Summary{p.Warden, p.Bare} {
			fmt.Fprintf(w, "  %-8d %-12s %9.2f %9.2f %9.2f\n", p.Callers, s.Name, s.Median, s.P90, s.P99)
		}
		fmt.Fprintf(w, "  %-8d warden / bare Go: p50 %.2f×, p99 %.2f×; %d declined; %d rows, all clean allows\n",
			p.Callers, p.RatioP50, p.RatioP99, p.Declines, p.RowsAdded)
	}
}
