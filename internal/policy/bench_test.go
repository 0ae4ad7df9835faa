package policy

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// everyday are commands an agent runs all day; their evaluation must stay
// at most 50 µs median.
var everyday = []string{"git status", "ls -la", "go test ./...", "npm run build", "cat README.md",
	"git diff --stat && git log --oneline -5", "rg -n TODO src/", "make -j4 test 2>&1 | tail -20"}

// BenchmarkEverydayCommand reports the median evaluation of an everyday
// command (normalization and every built-in rule) and, measured in the
// same run as the baseline, the median of parsing it alone with
// mvdan.cc/sh: the ratio says what following the code and the rules add.
func BenchmarkEverydayCommand(b *testing.B) {
	e := TestEngine(Builtin(), nil, Options{})
	calls := make([]Call, len(everyday))
	for i, c := range everyday {
		calls[i], _ = CaseCall(c, TestHome, TestProject)
	}
	ctx := context.Background()
	for _, c := range calls {
		e.Evaluate(ctx, Normalize(c))
	}
	// one parser reused, as the normalizer reuses its pooled ones
	parser := syntax.NewParser(syntax.KeepComments(false), syntax.Variant(syntax.LangBash))
	eval := make([]time.Duration, b.N)
	parse := make([]time.Duration, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		e.Evaluate(ctx, Normalize(calls[i%len(calls)]))
		eval[i] = time.Since(t0)
		t0 = time.Now()
		_, _ = parser.Parse(strings.NewReader(everyday[i%len(everyday)]), "")
		parse[i] = time.Since(t0)
	}
	b.StopTimer()
	slices.Sort(eval)
	slices.Sort(parse)
	me, mp := eval[len(eval)/2], parse[len(parse)/2]
	b.ReportMetric(float64(me.Nanoseconds()), "median-ns/eval")
	b.ReportMetric(float64(mp.Nanoseconds()), "median-ns/parse-only")
	b.ReportMetric(float64(me)/float64(mp), "x-parse")
}
