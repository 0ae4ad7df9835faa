package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The keeper's own cost per hook, from the kernel's accounting of all its
// threads (Linux /proc/<pid>/task/*/schedstat and status): CPU time and
// context switches. Unlike wall times it moves little with other load on
// the machine, so it shows what a change to the keeper saves even when
// the ratios are blurred by neighbours.

// KeeperCost is the keeper's CPU and context switches per warden run of a
// phase (warm-up included, as both counters run through it).
type KeeperCost struct {
	CPUus       float64 `json:"cpu_us_per_hook"`
	CtxSwitches float64 `json:"context_switches_per_hook"`
}

type procTotals struct {
	cpuNS int64 // sum_exec_runtime over threads
	ctxsw int64 // voluntary + involuntary switches over threads
}

// keeperPID reads the pid the keeper wrote into its lock file.
func keeperPID(lock string) int {
	b, err := os.ReadFile(lock)
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}

// totals sums pid's threads' counters; ok is false off Linux or when the
// process is gone.
func totals(pid int) (procTotals, bool) {
	var t procTotals
	tasks, err := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*"))
	if err != nil || len(tasks) == 0 {
		return t, false
	}
	for _, task := range tasks {
		if b, err := os.ReadFile(filepath.Join(task, "schedstat")); err == nil {
			if f := strings.Fields(string(b)); len(f) > 0 {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				t.cpuNS += n
			}
		}
		if b, err := os.ReadFile(filepath.Join(task, "status")); err == nil {
			for _, line := range strings.Split(string(b), "\n") {
				if k, v, ok := strings.Cut(line, ":"); ok && strings.HasSuffix(k, "ctxt_switches") {
					n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
					t.ctxsw += n
				}
			}
		}
	}
	return t, true
}

// costSince is the keeper's cost per run since before.
func costSince(pid int, before procTotals, runs int) *KeeperCost {
	after, ok := totals(pid)
	if !ok || runs == 0 {
		return nil
	}
	return &KeeperCost{
		CPUus:       float64(after.cpuNS-before.cpuNS) / 1e3 / float64(runs),
		CtxSwitches: float64(after.ctxsw-before.ctxsw) / float64(runs),
	}
}
