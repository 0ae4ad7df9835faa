package policy

import (
	"context"
	"strings"
	"testing"
)

func TestUserRulesAndCases(t *testing.T) {
	rules, cases, probs := LoadRuleFile("testdata/rules/example.toml")
	if len(probs) > 0 {
		t.Fatalf("problems: %v", probs)
	}
	if len(rules) != 4 || len(cases) != 7 {
		t.Fatalf("%d rules, %d cases", len(rules), len(cases))
	}
	e := TestEngine(Builtin(), rules, Options{})
	for _, r := range RunCases(e, cases) {
		if !r.OK {
			t.Error(r.String())
		}
	}
	if errs := Lint(rules, Options{}); len(errs) > 0 {
		t.Errorf("lint of a good file: %v", errs)
	}
}

func TestLintReportsProblemsWithLines(t *testing.T) {
	rules, _, probs := LoadRuleFile("testdata/rules/broken.toml")
	var got []string
	for _, p := range append(probs, Lint(rules, Options{})...) {
		got = append(got, p.String())
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		`broken.toml:15: unknown field "rule.colour"`,
		"broken.toml:17: rule id \"BadID\"",
		"broken.toml:4: team.bad:expr: expr:",
		"team.bad:never: expr is always false",
		`team.bad:tool: unknown tool "Bsh"`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("lint output lacks %q:\n%s", want, all)
		}
	}
}

// A rule marked fail = "closed" denies when it cannot be evaluated; one
// without it stays quiet (fail open).
func TestFailClosed(t *testing.T) {
	mk := func(closed bool) Rule {
		return Rule{ID: "team.x:boom", Mode: Warn, FailClosed: closed, Tools: []string{"Bash"},
			expr: &exprRule{src: `commands[5].name == "x"`}} // index out of range at run time
	}
	for _, closed := range []bool{false, true} {
		e := TestEngine(nil, []Rule{mk(closed)}, Options{})
		r := e.Evaluate(context.Background(), bash("ls"))
		want := Mode("")
		if closed {
			want = Deny
		}
		if r.Decision != want {
			t.Errorf("fail closed %v: decision %q, want %q (%+v)", closed, r.Decision, want, r.Hits)
		}
	}
}

// Only the rules whose commands appear are evaluated (prefilter), and
// unrelated tools skip shell rules entirely.
func TestPrefilter(t *testing.T) {
	calls := 0
	r := Rule{ID: "team.x:count", Mode: Audit, Tools: shellTools, Cmds: []string{"terraform"},
		Match: func(e *Env) string { calls++; return "" }}
	e := TestEngine(nil, []Rule{r}, Options{})
	e.Evaluate(context.Background(), bash("ls -la && go test ./..."))
	if calls != 0 {
		t.Errorf("rule for terraform evaluated %d times on a call without terraform", calls)
	}
	e.Evaluate(context.Background(), bash("cd infra && terraform plan"))
	if calls != 1 {
		t.Errorf("rule evaluated %d times, want 1", calls)
	}
}
