package policy

import (
	"context"
	"strings"
	"testing"
)

// rulesRun are the ids of the rules run on the command in, in order.
func rulesRun(e *Engine, in string) []string {
	var ids []string
	e.ran = func(r *prepared) { ids = append(ids, r.ID) }
	defer func() { e.ran = nil }()
	c, _ := CaseCall(in, TestHome, TestProject)
	e.Evaluate(context.Background(), Normalize(c))
	return ids
}

// TestRulesRunCounts logs how many rules run on each benchmark line
// and which (go test -run RulesRunCounts -v).
func TestRulesRunCounts(t *testing.T) {
	e := TestEngine(Builtin(), nil, Options{})
	for i := 0; i < scanCalls+1; i++ { // past the scan, as the benchmark is
		rulesRun(e, "true")
	}
	for _, in := range append(append([]string{}, everyday...), bashMix...) {
		ids := rulesRun(e, in)
		t.Logf("%3d %s", len(ids), in)
		t.Logf("    %s", strings.Join(ids, " "))
	}
}
