package policy

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A rule gated by subcommand (subgates.go) must never fire on a line
// whose commands of its program have none of its subcommands: every rule
// case and the corpora's lines are run through each gated rule directly,
// and where it fires the gate must hold. The corpora are the tests' own
// (testdata) and every file of corpus/ and corpus/heldout/.
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
			t.Errorf("subgates.go lists %s, which is no built-in rule indexed by that program: drop or fix the entry", id)
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
			if !gateOpen(r, f) {
				t.Errorf("%s fires on %q, but no command there has one of its subcommands %v: widen its entry in subgates.go", r.ID, in, r.subs)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no gated rule fired on any input")
	}
}

// corpusLines are the commands of every corpus/*.txt and
// corpus/heldout/*.txt file, as the corpus package reads them.
func corpusLines(t *testing.T) []string {
	files, _ := filepath.Glob("corpus/*.txt")
	held, _ := filepath.Glob("corpus/heldout/*.txt")
	if len(files) == 0 {
		t.Fatal("no corpus/*.txt files")
	}
	unescape := strings.NewReplacer("⏎", "\n", "⇥", "\t")
	var out []string
	for _, name := range append(files, held...) {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			l = strings.TrimSpace(l)
			if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "@") {
				continue
			}
			if _, cmd, ok := strings.Cut(l, " "); ok {
				out = append(out, unescape.Replace(cmd))
			}
		}
	}
	return out
}
