package policy

import (
	"context"
	"slices"
	"testing"
	"time"
)

// dayCommands are the everyday commands of the issue's speed bar ("policy
// benchmark unchanged or better"): this file is written so it builds on
// the base the bar is measured against as well (no helper of later
// commits), so both test binaries time the same loop.
var dayCommands = []string{"ls", "ls -la", "git status", "go test ./...", "npm run build", "make",
	"cat README.md", "grep -rn TODO src/", "git diff --stat && git log --oneline -5",
	"make -j4 test 2>&1 | tail -20"}

// BenchmarkMedianEveryday times each of dayCommands on its own (reading
// and rules, as a hook evaluates one call) past the engine's warm-up
// calls, and reports the median over every timed call (median-ns/cmd).
func BenchmarkMedianEveryday(b *testing.B) {
	e := TestEngine(Builtin(), nil, Options{})
	ctx := context.Background()
	calls := make([]Call, len(dayCommands))
	for i, c := range dayCommands {
		calls[i], _ = CaseCall(c, TestHome, TestProject)
	}
	for i := 0; i < 64; i++ { // past any first-calls scanning and lazy regexps
		for _, c := range calls {
			e.Evaluate(ctx, Normalize(c))
		}
	}
	d := make([]time.Duration, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		e.Evaluate(ctx, Normalize(calls[i%len(calls)]))
		d[i] = time.Since(t0)
	}
	b.StopTimer()
	slices.Sort(d)
	b.ReportMetric(float64(d[len(d)/2].Nanoseconds()), "median-ns/cmd")
}

// BenchmarkDayCommand times each of dayCommands in a sub-benchmark of
// its own (ns/op and allocs/op per command).
func BenchmarkDayCommand(b *testing.B) {
	e := TestEngine(Builtin(), nil, Options{})
	ctx := context.Background()
	for _, c := range dayCommands {
		call, _ := CaseCall(c, TestHome, TestProject)
		for i := 0; i < 64; i++ {
			e.Evaluate(ctx, Normalize(call))
		}
		b.Run(c, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				e.Evaluate(ctx, Normalize(call))
			}
		})
	}
}
