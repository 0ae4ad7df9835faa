package policy

import (
	"context"
	"slices"
	"testing"
)

// A rule gated by task words (taskgates.go) must never fire on a line
// whose commands of its programs hold none of its words: every rule case
// and the corpora's lines are run through each gated rule directly, and
// where it fires the gate must hold.
func TestTaskGatesAreSound(t *testing.T) {
	e := TestEngine(Builtin(), nil, Options{})
	e.once.Do(e.index)
	var gated []*prepared
	for _, r := range e.indexed {
		if r.task != 0 {
			gated = append(gated, r)
		}
	}
	for id := range builtinTaskGates() {
		if !slices.ContainsFunc(gated, func(r *prepared) bool { return r.ID == id }) {
			t.Errorf("taskgates.go lists %s, which is no built-in rule indexed by its programs: drop or fix the entry", id)
		}
	}
	checked := 0
	for _, in := range append(triggerInputs(t, e), corpusLines(t)...) {
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
			if !(&Env{F: f}).taskGateOpen(r) {
				t.Errorf("%s fires on %q, but no command of its programs there holds one of its words: fix its entry in taskgates.go", r.ID, in)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no gated rule fired on any input")
	}
}
