package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/warden-dev/warden/internal/store/keeper"
)

// PausePhase is the hook Claude Code sends after a pause (the model
// thinking, the user reading): by then the keeper has gone quiet and
// checkpointed the WAL, and the first write after a complete checkpoint
// starts the WAL over and fsyncs its header. The keeper takes that write
// itself (sqlite.Pin.RestartWAL); HookRestarts counts the hooks that
// still did it (the WAL header's salt-1 moved during the hook).
type PausePhase struct {
	Rounds       int     `json:"rounds"`
	PauseMS      int64   `json:"pause_ms"`
	Warden       Summary `json:"warden"`
	Bare         Summary `json:"bare_go"`
	RatioBare    float64 `json:"ratio_warden_bare_go"`
	HookRestarts int     `json:"hook_wal_restarts"`
	// Keeper is the keeper's CPU and context switches during the hooks
	// (counted from just before each to just after it).
	Keeper *KeeperCost `json:"keeper,omitempty"`
}

// Keeper timing for the phase: the default Quiet (5 s) would make a round
// last 7 s; the same code path with a shorter wait.
const (
	pauseQuiet = 150 * time.Millisecond
	pausePoll  = 25 * time.Millisecond
	pauseWait  = 400 * time.Millisecond // > quiet + poll + the checkpoint
)

// pausePhase starts a keeper of its own with a short Quiet (the keeper
// phase has stopped its keeper), then for each round waits pauseWait and
// runs one hook and one bare Go process (alternating who goes first).
func (b *bench) pausePhase(o options) (*PausePhase, error) {
	lock := filepath.Join(filepath.Dir(b.db), "locks", "keeper.lock")
	core := filepath.Join(filepath.Dir(o.warden), "warden-core")
	cmd := exec.Command(core, "keeper", "--quiet", pauseQuiet.String(), "--poll", pausePoll.String())
	cmd.Env, cmd.Dir = b.env, b.dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, b.stdout, b.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("pause phase: start the keeper: %w", err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	defer func() {
		keeper.Stop(lock, 10*time.Second)
		select {
		case <-waited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-waited
		}
	}()
	if !keeperUp(lock) {
		return nil, errors.New("pause phase: the keeper did not come up")
	}
	wardenV := variant{path: o.warden, args: []string{"hook", "--harness", "claude"}, warden: true, event: preToolUse}
	bareV := variant{path: o.bare}
	p := &PausePhase{Rounds: o.pauseRounds, PauseMS: pauseWait.Milliseconds()}
	var wardenMS, bareMS []float64
	pid := keeperPID(lock)
	var spent procTotals
	counted := true
	for r := 0; r < o.pauseRounds+1; r++ { // round 0 only makes the WAL dirty
		time.Sleep(pauseWait)
		order := []variant{wardenV, bareV}
		if r%2 == 1 {
			order[0], order[1] = bareV, wardenV
		}
		for _, v := range order {
			salt := walSalt(b.db)
			t0, ok0 := totals(pid)
			d, err := b.spawn(v)
			t1, ok1 := totals(pid)
			if err != nil {
				return nil, errors.Join(fmt.Errorf("pause phase: %w", err), b.stderrEmpty())
			}
			if r == 0 {
				continue
			}
			ms := float64(d.Microseconds()) / 1000
			if v.warden {
				wardenMS = append(wardenMS, ms)
				counted = counted && ok0 && ok1
				spent.cpuNS += t1.cpuNS - t0.cpuNS
				spent.ctxsw += t1.ctxsw - t0.ctxsw
				if walSalt(b.db) != salt {
					p.HookRestarts++
				}
			} else {
				bareMS = append(bareMS, ms)
			}
		}
	}
	if err := b.stderrEmpty(); err != nil {
		return nil, err
	}
	p.Warden, p.Bare = summarize("warden hook", wardenMS), summarize("bare Go", bareMS)
	p.RatioBare = p.Warden.Median / p.Bare.Median
	if counted && len(wardenMS) > 0 {
		n := float64(len(wardenMS))
		p.Keeper = &KeeperCost{CPUus: float64(spent.cpuNS) / 1e3 / n, CtxSwitches: float64(spent.ctxsw) / n}
	}
	return p, nil
}

// walSalt is the WAL header's salt-1, which SQLite moves each time a
// writer starts the WAL over (0 without a WAL).
func walSalt(db string) uint32 {
	f, err := os.Open(db + "-wal")
	if err != nil {
		return 0
	}
	defer f.Close()
	var hdr [20]byte
	if _, err := f.ReadAt(hdr[:], 0); err != nil {
		return 0
	}
	return binary.BigEndian.Uint32(hdr[16:20])
}

func printPause(w io.Writer, p *PausePhase) {
	if p == nil {
		return
	}
	fmt.Fprintf(w, "\nafter a pause (%d ms each, the keeper checkpointed meanwhile): %d hooks\n", p.PauseMS, p.Rounds)
	fmt.Fprintf(w, "  %-26s %9s %9s %9s\n", "ms", "median", "p90", "p99")
	for _, v := range []Summary{p.Warden, p.Bare} {
		fmt.Fprintf(w, "  %-26s %9.2f %9.2f %9.2f\n", v.Name, v.Median, v.P90, v.P99)
	}
	if k := p.Keeper; k != nil {
		fmt.Fprintf(w, "  keeper per hook: %.0f µs CPU, %.1f context switches (from just before to just after each hook)\n", k.CPUus, k.CtxSwitches)
	}
	fmt.Fprintf(w, "  warden / bare Go %.2f×   (medians); hooks that started the WAL over (header fsync): %d of %d\n", p.RatioBare, p.HookRestarts, p.Rounds)
}
