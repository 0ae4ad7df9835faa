package policy

import (
	"context"
	"slices"
	"testing"
)

// A rule gated by subcommand (subgates.go) must never fire on a line
// whose commands of its program have none of its subcommands: every rule
// case and the corpora's lines are run through each gated rule directly,
// and where it fires the gate must hold.
func TestSubGatesAreSound(t *testing.T) {
	e := TestEngine(Builtin(), nil, Options{})
	e.once.Do(e.index)
	var gated []*prepared
	for _, r := range e.indexed {
		if r.subs != nil {
			gated = append(gated, r)
		}
	}
	for id := range builtinSubGates() {
		if !slices.ContainsFunc(gated, func(r *prepared) bool { return r.ID == id }) {
			t.Errorf("subgates.go lists %s, which is no built-in rule indexed by exactly that program: drop or fix the entry", id)
		}
	}
	checked := 0
	for _, in := range triggerInputs(t, e) {
		c, err := CaseCall(in, TestHome, TestProject)
		if err != nil {
			continue
		}
		f := withoutDevPlaces(Normalize(c).WithoutHelp())
		for _, r := range gated {
			if !r.runsOn(f.Event) || !r.forTool(f.Tool) {
				continue
			}
			env := &Env{F: f, Opts: &e.opts, ctx: context.Background(), git: e.Git, gitBranch: e.GitBranch}
			if e.match(r, env) == "" {
				continue
			}
			checked++
			if !gateOpen(r, f) {
				t.Errorf("%s fires on %q, but no command there has one of its subcommands %v: widen its entry in subgates.go", r.ID, in, r.subs)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no gated rule fired on any input")
	}
}
