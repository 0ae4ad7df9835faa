package policy

import (
	"context"
	"fmt"
	"maps"
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
	checkGatesSound(t, "subgates.go", "indexed by that program", indexedRules,
		func(r *prepared) bool { return r.subs != nil }, slices.Collect(maps.Keys(builtinSubGates())),
		func(r *prepared, f *Facts) string {
			if gateOpen(r, f) {
				return ""
			}
			return fmt.Sprintf("no command there has one of its subcommands %v: widen its entry in subgates.go", r.subs)
		})
}

// checkGatesSound is the soundness check of a gate table (file): every
// rule case and corpus line is run through each built-in rule of pool
// (the engine's indexed rules, or all of them) isGated picks, and where
// one fires, closed must find its gate open ("") — else closed says why
// not. An id of listed (the table's entries) that is no gated rule fails
// too: it is no built-in rule indexedBy.
func checkGatesSound(t *testing.T, file, indexedBy string, pool func(*Engine) []*prepared, isGated func(*prepared) bool, listed []string, closed func(r *prepared, f *Facts) string) {
	t.Helper()
	e := TestEngine(Builtin(), nil, Options{})
	e.once.Do(e.index)
	var gated []*prepared
	for _, r := range pool(e) {
		if isGated(r) {
			gated = append(gated, r)
		}
	}
	for _, id := range listed {
		if !slices.ContainsFunc(gated, func(r *prepared) bool { return r.ID == id }) {
			t.Errorf("%s lists %s, which is no built-in rule %s: drop or fix the entry", file, id, indexedBy)
		}
	}
	checked := 0
	eachCaseFacts(t, e, func(in string, f *Facts) {
		for _, r := range gated {
			if !r.runsOn(f.Event) || !r.forTool(f.Tool) {
				continue
			}
			env := &Env{F: f, Opts: &e.opts, ctx: context.Background(), git: e.Git, gitBranch: e.GitBranch}
			if e.match(r, env) == "" {
				continue
			}
			checked++
			if why := closed(r, f); why != "" {
				t.Errorf("%s fires on %q, but %s", r.ID, in, why)
			}
		}
	})
	if checked == 0 {
		t.Fatal("no gated rule fired on any input")
	}
}

// checkProgGatesSound is checkGatesSound for a gate of rules indexed by
// their programs that is read per command (reqgates.go, taskgates.go,
// urlgates.go): open is the gate, why what a closed one says.
func checkProgGatesSound(t *testing.T, file string, isGated func(*prepared) bool, listed []string, open func(*Env, *prepared) bool, why string) {
	t.Helper()
	checkGatesSound(t, file, "indexed by its programs", indexedRules, isGated, listed, func(r *prepared, f *Facts) string {
		if open(&Env{F: f}, r) {
			return ""
		}
		return why
	})
}

// indexedRules and allRules are the pools of checkGatesSound.
func indexedRules(e *Engine) []*prepared { return e.indexed }
func allRules(e *Engine) []*prepared     { return e.rules }

// eachCaseFacts hands fn the facts of every rule case and corpus line,
// read as the engine reads them before its rules (help stripped, the
// developer's own places set aside); a line that does not parse is skipped.
func eachCaseFacts(t *testing.T, e *Engine, fn func(in string, f *Facts)) {
	t.Helper()
	for _, in := range append(triggerInputs(t, e), corpusLines(t)...) {
		c, err := CaseCall(in, TestHome, TestProject)
		if err != nil {
			continue
		}
		fn(in, withoutDevPlaces(Normalize(c).WithoutHelp()))
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

// The engine's index of the subcommand gates (subgateindex.go) opens
// exactly the gated rules gateOpen opens, on every rule case and corpus
// line.
func TestSubGateIndexAgrees(t *testing.T) {
	e := TestEngine(Builtin(), nil, Options{})
	e.once.Do(e.index)
	x := newSubGateIndex(e.indexed, len(e.rules))
	checked := 0
	eachCaseFacts(t, e, func(in string, f *Facts) {
		open := newRuleSet(len(e.rules))
		x.open(f, open)
		for _, r := range e.indexed {
			if r.subs == nil {
				continue
			}
			if want := gateOpen(r, f); open.has(r.idx) != want {
				t.Fatalf("%s on %q: the index says open=%v, gateOpen %v", r.ID, in, open.has(r.idx), want)
			}
			checked++
		}
	})
	if checked == 0 {
		t.Fatal("no gated rule checked")
	}
}
