package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

func summarize(name string, ms []float64) Summary {
	s := slices.Clone(ms)
	slices.Sort(s)
	return Summary{Name: name, Median: quantile(s, 0.5), P90: quantile(s, 0.9), P99: quantile(s, 0.99)}
}

// quantile is the nearest-rank quantile of sorted s.
func quantile(s []float64, q float64) float64 {
	i := int(q*float64(len(s))+0.5) - 1
	return s[max(0, min(i, len(s)-1))]
}

func printTable(w io.Writer, r *Result) {
	fmt.Fprintf(w, "hook latency: %d rounds after %d warm-up, order rotated per round\n", r.Rounds, r.Warmup)
	fmt.Fprintf(w, "payload: %d-byte PreToolUse Bash (ls -la, allowed); warden binary %.1f MB\n", r.PayloadBytes, r.WardenMB)
	if len(r.Phases) > 0 && len(r.Phases[0].Variants) > 3 {
		fmt.Fprintf(w, "warden PostToolUse: the same Bash call's %d-byte PostToolUse, pacing figures stored (5h 10%%, 7d 10%%): cached decision, no throttle\n", r.PayloadBytes)
	}
	for _, p := range r.Phases {
		fmt.Fprintf(w, "\n%s\n", p.Name)
		fmt.Fprintf(w, "  %-26s %9s %9s %9s\n", "ms", "median", "p90", "p99")
		for _, v := range p.Variants {
			fmt.Fprintf(w, "  %-26s %9.2f %9.2f %9.2f\n", v.Name, v.Median, v.P90, v.P99)
		}
		for _, h := range p.HookWork {
			fmt.Fprintf(w, "  %-26s %9.2f %9.2f %9.2f\n", h.Name, h.Median, h.P90, h.P99)
		}
		if k := p.Keeper; k != nil {
			fmt.Fprintf(w, "  keeper per hook: %.0f µs CPU, %.1f context switches (all its threads; moves little with load)\n", k.CPUus, k.CtxSwitches)
		}
		fmt.Fprintf(w, "  warden / true    %.2f×   (medians)\n", p.RatioTrue)
		fmt.Fprintf(w, "  warden / bare Go %.2f×   (medians)\n", p.RatioBare)
		for _, h := range p.HookWork {
			if h.Name == postToolUse+" in-process" {
				verdict := "under"
				if h.Median >= 5 {
					verdict = "OVER"
				}
				fmt.Fprintf(w, "  PostToolUse hook work, median %.2f ms: %s the 5 ms pacing target\n", h.Median, verdict)
			}
		}
		fmt.Fprintf(w, "  rows added: %d = %d warden runs (warm-up included), all clean allows\n", p.RowsAdded, p.WardenRuns)
	}
	printParallel(w, r.Parallel)
	printNode(w, r.Node)
	printHarnesses(w, r.Harnesses)
	printPause(w, r.Pause)
	printFloor(w, r.Floor)
	printExport(w, r.Export)
	if s := r.Ship; s != nil {
		fmt.Fprintf(w, "\nPostgreSQL store configured: the keeper shipped all %d local rows (mark %d), caught up %.1f s after the last hook\n", s.Rows, s.Shipped, s.CaughtUpS)
	}
	if c := r.Check; c != nil {
		verdict := "ok"
		if !c.Pass {
			verdict = "FAIL: start-up regression, or hooks declined?"
		}
		var parts []string
		for _, p := range r.Node {
			parts = append(parts, fmt.Sprintf("%.2f× with %d caller(s)", c.Ratios[p.Callers], p.Callers))
		}
		if c.Max > 0 {
			fmt.Fprintf(w, "\ncheck: warden (exec form) / bare Go from the Node parent, p50: %s, against max %.2f×; %d declined: %s\n", strings.Join(parts, ", "), c.Max, c.Declines, verdict)
		}
		if c.MaxClaude > 0 {
			var hs []string
			for _, h := range harnessRuns[1:] {
				hs = append(hs, fmt.Sprintf("%s %.2f×", h.name, c.HarnessRatios[h.name]))
			}
			fmt.Fprintf(w, "check: other CLIs' hook p50 / Claude Code's: %s, against max %.2f×: %s\n", strings.Join(hs, ", "), c.MaxClaude, verdict)
		}
	}
}
