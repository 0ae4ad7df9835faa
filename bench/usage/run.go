//go:build unix

package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/warden-dev/warden/internal/testenv"
	"github.com/warden-dev/warden/internal/usage"
	"github.com/warden-dev/warden/internal/usage/corpus"
)

type sample struct {
	wall, cpu time.Duration
	maxRSSKB  int64
}

type series struct {
	name    string
	samples []sample
}

func (s *series) median(f func(sample) float64) float64 {
	v := make([]float64, len(s.samples))
	for i, x := range s.samples {
		v[i] = f(x)
	}
	sort.Float64s(v)
	if len(v) == 0 {
		return 0
	}
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

func (s *series) peakKB() int64 {
	var m int64
	for _, x := range s.samples {
		m = max(m, x.maxRSSKB)
	}
	return m
}

// measure runs argv with env, stdout to /dev/null, and returns wall, CPU
// (user+system of the process and the descendants it waited for) and the
// process's peak RSS.
func measure(env []string, argv ...string) (sample, error) {
	var before, after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &before)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	devnull, _ := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	defer devnull.Close()
	cmd.Stdout = devnull
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return sample{}, fmt.Errorf("%s: %v: %s", strings.Join(argv, " "), err, stderr.String())
	}
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &after)
	tv := func(t syscall.Timeval) time.Duration {
		return time.Duration(t.Sec)*time.Second + time.Duration(t.Usec)*time.Microsecond
	}
	cpu := tv(after.Utime) - tv(before.Utime) + tv(after.Stime) - tv(before.Stime)
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss
	}
	return sample{wall: wall, cpu: cpu, maxRSSKB: rss}, nil
}

func runMain(args []string) {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	dir := fs.String("corpus", "", "config dir holding projects/ (generated when missing)")
	mb := fs.Int64("mb", 500, "corpus size to generate when -corpus is missing")
	warden := fs.String("warden", "", "warden binary")
	ccusage := fs.String("ccusage", "", "ccusage launcher (empty = skip ccusage)")
	rounds := fs.Int("rounds", 5, "interleaved rounds")
	warmReps := fs.Int("warm-reps", 5, "warm runs (nothing new, after an append) per round")
	check := fs.Bool("check", false, "exit 1 when a target is missed")
	fs.Parse(args)
	if *dir == "" || *warden == "" {
		fmt.Fprintln(os.Stderr, "run: -corpus and -warden are required")
		testenv.Exit(2)
	}
	if _, err := os.Stat(filepath.Join(*dir, "projects")); err != nil {
		fmt.Printf("generating a %d MB corpus in %s …\n", *mb, *dir)
		st, err := corpus.Generate(*dir, corpus.Config{Seed: 42, Projects: 8, Sessions: 10, Turns: 200, Pad: 400, TargetBytes: *mb << 20})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			testenv.Exit(1)
		}
		fmt.Printf("%d files, %d lines, %.1f MB\n", st.Files, st.Lines, float64(st.Bytes)/(1<<20))
	}
	// A home of its own: never the developer's config, store or PATH (the
	// corpus and ccusage are given by path).
	defer testenv.Isolate()()
	tmp, err := os.MkdirTemp("", "usage-bench-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		testenv.Exit(1)
	}
	defer os.RemoveAll(tmp)
	base := append(os.Environ(), "TZ=UTC", "CLAUDE_CONFIG_DIR="+*dir, "NO_COLOR=1")
	coldHome := filepath.Join(tmp, "cold")
	warmHome := filepath.Join(tmp, "warm")
	coldEnv := append(append([]string(nil), base...), "WARDEN_HOME="+coldHome)
	warmEnv := append(append([]string(nil), base...), "WARDEN_HOME="+warmHome)

	// Appends go to a session of their own in the corpus (removed at the
	// end): one response, streamed as three lines with the same message id,
	// per warm-after-append run.
	appendDir := filepath.Join(*dir, "projects", "-bench-append")
	os.RemoveAll(appendDir)
	if err := os.MkdirAll(appendDir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		testenv.Exit(1)
	}
	defer os.RemoveAll(appendDir)
	appendPath := filepath.Join(appendDir, "bench-append.jsonl")
	appended := 0
	appendResponse := func() error {
		f, err := os.OpenFile(appendPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		appended++
		at := time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
		for k := 1; k <= 3; k++ {
			fmt.Fprintf(f, `{"type":"assistant","sessionId":"bench-append","requestId":"req_bench%d","timestamp":%q,"version":"2.1.330","message":{"id":"msg_bench%d","model":"claude-sonnet-4-5-20250929","usage":{"input_tokens":%d,"output_tokens":%d,"cache_creation_input_tokens":1200,"cache_read_input_tokens":30000}}}`+"\n",
				appended, at, appended, 10, 100*k)
		}
		return f.Close()
	}
	if err := appendResponse(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		testenv.Exit(1)
	}

	files, err := usage.Discover([]string{*dir})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		testenv.Exit(1)
	}
	var total int64
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.Path
		total += f.Size
	}
	fmt.Printf("corpus: %d files, %.1f MB\n", len(files), float64(total)/(1<<20))

	// Warm the page cache and the warm store.
	exec.Command("cat", paths...).Run()
	if _, err := measure(warmEnv, *warden, "usage", "blocks", "--json"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		testenv.Exit(1)
	}

	type runner struct {
		s    *series
		run  func() (sample, error)
		reps int // runs per round (warm runs are short and noisy)
	}
	cold := &series{name: "warden cold (empty cache)"}
	warm := &series{name: "warden warm (nothing new)"}
	warmApp := &series{name: "warden warm after an append"}
	cat := &series{name: "cat > /dev/null"}
	cc := &series{name: "ccusage 20.0.24 --offline"}
	runners := []runner{
		{cold, func() (sample, error) {
			os.RemoveAll(coldHome)
			return measure(coldEnv, *warden, "usage", "blocks", "--json")
		}, 1},
		{cat, func() (sample, error) { return measure(base, append([]string{"cat"}, paths...)...) }, 1},
		{warm, func() (sample, error) { return measure(warmEnv, *warden, "usage", "blocks", "--json") }, *warmReps},
		{warmApp, func() (sample, error) {
			if err := appendResponse(); err != nil {
				return sample{}, err
			}
			return measure(warmEnv, *warden, "usage", "blocks", "--json")
		}, *warmReps},
	}
	if *ccusage != "" {
		runners = append(runners, runner{cc, func() (sample, error) {
			return measure(base, *ccusage, "claude", "blocks", "--json", "--offline")
		}, 1})
	}
	for r := 0; r < *rounds; r++ {
		for k := range runners {
			x := runners[(k+r)%len(runners)] // rotate the order each round
			for n := 0; n < max(1, x.reps); n++ {
				s, err := x.run()
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					testenv.Exit(1)
				}
				x.s.samples = append(x.s.samples, s)
			}
		}
	}
	wall := func(s sample) float64 { return s.wall.Seconds() }
	cpu := func(s sample) float64 { return s.cpu.Seconds() }
	fmt.Printf("\n%-30s %10s %10s %12s\n", fmt.Sprintf("medians (%d rounds)", *rounds), "wall s", "CPU s", "peak RSS MB")
	all := []*series{cold, warm, warmApp, cat}
	if *ccusage != "" {
		all = append(all, cc)
	}
	for _, s := range all {
		fmt.Printf("%-30s %10.3f %10.3f %12.1f  (%d runs)\n", s.name, s.median(wall), s.median(cpu), float64(s.peakKB())/1024, len(s.samples))
	}
	ok := true
	target := func(name string, pass bool, format string, a ...any) {
		status := "ok"
		if !pass {
			status = "MISSED"
			ok = false
		}
		fmt.Printf("%-44s %-24s %s\n", name, fmt.Sprintf(format, a...), status)
	}
	fmt.Println()
	cw := cold.median(wall)
	if *ccusage != "" {
		r := cc.median(wall) / cw
		target("ccusage / warden cold (wall) ≥ 3", r >= 3, "%.2f×", r)
		fmt.Printf("%-44s %.2f×\n", "ccusage / warden cold (CPU)", cc.median(cpu)/cold.median(cpu))
	}
	r := cw / cat.median(wall)
	target("warden cold / cat (wall) ≤ 2.5", r <= 2.5, "%.2f×", r)
	w := warm.median(wall) * 1000
	target("warden warm, nothing new < 50 ms", w < 50, "%.1f ms", w)
	w = warmApp.median(wall) * 1000
	target("warden warm after an append < 50 ms", w < 50, "%.1f ms", w)
	peak := float64(max(cold.peakKB(), warm.peakKB(), warmApp.peakKB())) / 1024
	target("warden peak memory < 150 MB", peak < 150, "%.1f MB", peak)
	if *check && !ok {
		testenv.Exit(1)
	}
}
