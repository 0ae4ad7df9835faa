package main

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The Node-parent phase measures hooks as users get them: Claude Code is a
// Node program, and it spawns a hook with child_process.spawn, the payload
// on a pipe. Spawning from Node costs more than from Go, and the same for
// every process, so the ratio to a bare Go program spawned the same way is
// the one that says what warden adds to a tool call. The warden variant is
// exec form ("command" + "args", spawned directly, as install registers it
// for Claude Code 2.1.139 and newer); shell form (the line run by
// `bash -c`, as for older releases) is measured beside it for reference.
// Alone (one caller) and at 4 callers started together (parallel tool
// calls), each against as many bare Go processes in the same rounds.

//go:embed nodeparent.js
var nodeParentJS string

// NodePhase is one concurrency level from the Node parent.
type NodePhase struct {
	Callers int     `json:"callers"`
	Rounds  int     `json:"rounds"`
	Warden  Summary `json:"warden_exec_form"`
	Bare    Summary `json:"bare_go"`
	// WardenB is the -warden-b build measured in the same rounds (its own
	// home and keeper), RatioBP50 its p50 over bare Go's and RatioBA its
	// p50 over -warden's: an A/B of two builds under the same load.
	WardenB   *Summary `json:"warden_b_exec_form,omitempty"`
	RatioBP50 float64  `json:"ratio_b_p50,omitempty"`
	RatioBA   float64  `json:"ratio_b_to_a_p50,omitempty"`
	// KeeperB is the -warden-b keeper's cost per hook.
	KeeperB *KeeperCost `json:"keeper_b,omitempty"`
	// Shell is warden in shell form (one caller only).
	Shell     *Summary `json:"warden_shell_form,omitempty"`
	RatioP50  float64  `json:"ratio_p50"`
	RatioP99  float64  `json:"ratio_p99"`
	Declines  int64    `json:"declines"`
	RowsAdded int      `json:"rows_added"`
	// Work is the hooks' in-process time (the rows' latency_us: from the
	// hook's start in the keeper until just after its answer, the wait
	// for stdin and the session lock included), measured rounds only:
	// how much longer the keeper takes per hook when callers come
	// together.
	Work Summary `json:"warden_in_process"`
	// Keeper is the keeper's CPU time and context switches per warden
	// hook of this level (Linux): steadier than the wall times when the
	// machine is shared.
	Keeper *KeeperCost `json:"keeper,omitempty"`
}

// nodeParent is the running Node driver.
type nodeParent struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

type nodeRun struct {
	Path  string   `json:"path"`
	Args  []string `json:"args,omitempty"`
	Stdin string   `json:"stdin,omitempty"`
	Env   []string `json:"env,omitempty"` // replaces the parent's (-warden-b)
	Cwd   string   `json:"cwd,omitempty"`
}

type nodeResult struct {
	MS     []float64 `json:"ms"`
	Codes  []int     `json:"codes"`
	Stderr string    `json:"stderr"`
}

// startNode runs the driver with the bench's environment and directory, so
// the hooks it spawns inherit them as Claude Code's hooks inherit its own.
func (b *bench) startNode(node string) (*nodeParent, error) {
	dir, err := os.MkdirTemp("", "hook-node-")
	if err != nil {
		return nil, err
	}
	script := filepath.Join(dir, "nodeparent.js")
	if err := os.WriteFile(script, []byte(nodeParentJS), 0o600); err != nil {
		return nil, err
	}
	cmd := exec.Command(node, script)
	cmd.Env, cmd.Dir, cmd.Stderr = b.env, b.dir, os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the Node parent (%s): %w; node is needed to measure hooks as Claude Code spawns them", node, err)
	}
	// The script was read at start; the directory can go.
	p := &nodeParent{cmd: cmd, in: in, out: bufio.NewReader(out)}
	go func() { p.cmd.Wait(); os.RemoveAll(dir) }()
	return p, nil
}

func (p *nodeParent) close() { p.in.Close() }

// burst starts runs together from Node and returns each one's time.
func (p *nodeParent) burst(runs []nodeRun) ([]float64, error) {
	line, err := json.Marshal(map[string]any{"runs": runs})
	if err != nil {
		return nil, err
	}
	if _, err := p.in.Write(append(line, '\n')); err != nil {
		return nil, fmt.Errorf("Node parent: %w", err)
	}
	reply, err := p.out.ReadBytes('\n')
	if err != nil {
		return nil, fmt.Errorf("Node parent: %w", err)
	}
	var r nodeResult
	if err := json.Unmarshal(reply, &r); err != nil {
		return nil, fmt.Errorf("Node parent: %w: %s", err, reply)
	}
	var errs []error
	for i, c := range r.Codes {
		if c != 0 {
			errs = append(errs, fmt.Errorf("%s %v exited %d", runs[i].Path, runs[i].Args, c))
		}
	}
	if r.Stderr != "" {
		errs = append(errs, fmt.Errorf("a process wrote to stderr:\n%s", r.Stderr))
	}
	return r.MS, errors.Join(errs...)
}

// nodePhase measures n callers from the Node parent: per round a burst of
// n exec-form warden hooks and one of n bare Go processes (the order
// alternating), and with one caller a shell-form warden hook too.
func (b *bench) nodePhase(p *nodeParent, o options, n int) (*NodePhase, error) {
	before, _, err := b.countRows(nil)
	if err != nil {
		return nil, err
	}
	declinesBefore, err := b.declines()
	if err != nil {
		return nil, err
	}
	hookArgs := []string{"hook", "--harness", "claude"}
	shellLine := shellQuote(o.warden) + " " + strings.Join(hookArgs, " ")
	const (
		execForm = iota
		bare
		shellForm
		execFormB // -warden-b: the other build, in its own home
	)
	kinds := []int{execForm, bare}
	if b.other != nil {
		kinds = append(kinds, execFormB)
	}
	if n == 1 && b.other == nil {
		// Not beside -warden-b: its keeper would serve one hook a round
		// and this build's two, and each keeper's CPU per hook then
		// spreads its idle cost (polls, the runtime's monitor thread)
		// over a different number of hooks.
		kinds = append(kinds, shellForm)
	}
	var otherBefore int
	if b.other != nil {
		if otherBefore, _, err = b.other.countRows(nil); err != nil {
			return nil, err
		}
	}
	otherRuns := 0
	samples := map[int][]float64{}
	runs, firstMeasured := 0, 0
	for r := 0; r < o.warmup+o.nodeRounds; r++ {
		if r == o.warmup {
			firstMeasured = b.seq + 1
		}
		for i := range kinds {
			k := kinds[(r+i)%len(kinds)] // rotate who goes first
			batch := make([]nodeRun, n)
			for j := range batch {
				switch k {
				case bare:
					batch[j] = nodeRun{Path: o.bare}
					continue
				case execForm:
					batch[j] = nodeRun{Path: o.warden, Args: hookArgs}
					if b.other != nil { // both builds name their home alike
						batch[j].Env, batch[j].Cwd = b.env, b.dir
					}
				case execFormB:
					o2 := b.other
					o2.seq++
					batch[j] = nodeRun{Path: o.wardenB, Args: hookArgs, Env: o2.env, Cwd: o2.dir, Stdin: string(o2.payload(preToolUse))}
					otherRuns++
					continue
				case shellForm:
					batch[j] = nodeRun{Path: "/bin/bash", Args: []string{"-c", shellLine}}
				}
				b.seq++
				batch[j].Stdin = string(b.payload(preToolUse))
				runs++
			}
			ms, err := p.burst(batch)
			if err != nil {
				return nil, fmt.Errorf("Node parent, %d callers: %w", n, err)
			}
			if r >= o.warmup {
				samples[k] = append(samples[k], ms...)
			}
		}
	}
	after, bad, err := b.settledRows(nil, before+runs)
	if err != nil {
		return nil, err
	}
	declinesAfter, err := b.declines()
	if err != nil {
		return nil, err
	}
	ph := &NodePhase{Declines: declinesAfter - declinesBefore, Callers: n, Rounds: o.nodeRounds, RowsAdded: after - before,
		Warden: summarize("warden (exec form)", samples[execForm]), Bare: summarize("bare Go", samples[bare])}
	if ph.RowsAdded != runs {
		return nil, fmt.Errorf("Node parent, %d callers: %d warden runs added %d rows", n, runs, ph.RowsAdded)
	}
	if bad > 0 {
		return nil, fmt.Errorf("Node parent, %d callers: %d rows are not a clean allow", n, bad)
	}
	work, err := b.hookWork(nil, preToolUse, firstMeasured)
	if err != nil {
		return nil, err
	}
	ph.Work = summarize("warden in-process", work)
	if b.other != nil {
		if err := b.other.checkRows(otherBefore+otherRuns, otherRuns, n); err != nil {
			return nil, err
		}
		sum := summarize("warden-b (exec form)", samples[execFormB])
		ph.WardenB = &sum
		ph.RatioBP50 = sum.Median / ph.Bare.Median
		ph.RatioBA = sum.Median / ph.Warden.Median
	}
	if s, ok := samples[shellForm]; ok {
		sum := summarize("warden (shell form)", s)
		ph.Shell = &sum
	}
	ph.RatioP50, ph.RatioP99 = ph.Warden.Median/ph.Bare.Median, ph.Warden.P99/ph.Bare.P99
	return ph, nil
}

// shellQuote quotes s for a POSIX shell, as install writes a shell-form
// hook's program.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func printNode(w io.Writer, ps []NodePhase) {
	if len(ps) == 0 {
		return
	}
	fmt.Fprintf(w, "\nfrom a Node parent, as Claude Code spawns hooks (child_process.spawn, payload on a pipe), with the store keeper\n")
	fmt.Fprintf(w, "  %-8s %-20s %9s %9s %9s\n", "callers", "ms", "median", "p90", "p99")
	for _, p := range ps {
		rows := []Summary{p.Warden, p.Bare, p.Work}
		if p.WardenB != nil {
			rows = append(rows, *p.WardenB)
		}
		if p.Shell != nil {
			rows = append(rows, *p.Shell)
		}
		for _, s := range rows {
			fmt.Fprintf(w, "  %-8d %-20s %9.2f %9.2f %9.2f\n", p.Callers, s.Name, s.Median, s.P90, s.P99)
		}
		fmt.Fprintf(w, "  %-8d warden exec form / bare Go: p50 %.2f×, p99 %.2f×; %d declined; %d rows, all clean allows\n",
			p.Callers, p.RatioP50, p.RatioP99, p.Declines, p.RowsAdded)
		if k := p.Keeper; k != nil {
			fmt.Fprintf(w, "  %-8d keeper per hook: %.0f µs CPU, %.1f context switches\n", p.Callers, k.CPUus, k.CtxSwitches)
		}
		if p.WardenB != nil {
			fmt.Fprintf(w, "  %-8d -warden-b / bare Go: p50 %.2f×; -warden-b / -warden: p50 %.3f×\n", p.Callers, p.RatioBP50, p.RatioBA)
		}
		if k := p.KeeperB; k != nil {
			fmt.Fprintf(w, "  %-8d -warden-b keeper per hook: %.0f µs CPU, %.1f context switches\n", p.Callers, k.CPUus, k.CtxSwitches)
		}
	}
}
