package policy

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// Every built-in rule says when it runs: by program (Cmds, shell tools
// only), by trigger (Rule.On or builtinTriggers, Any with its reason), or
// by non-shell tools alone. None runs on every call without saying so.
func TestEveryRuleDeclaresWhenItRuns(t *testing.T) {
	ids := map[string]bool{}
	for _, p := range Builtin() {
		for i := range p.Rules {
			r := &p.Rules[i]
			ids[r.ID] = true
			_, inTable := builtinTriggers()[r.ID]
			switch {
			case len(r.Cmds) > 0 && isShellOnly(r):
				if r.On.declared() || inTable {
					t.Errorf("%s: indexed by Cmds and also given a trigger; keep one", r.ID)
				}
			case r.On.declared() && inTable:
				t.Errorf("%s: a trigger in Rule.On and in builtinTriggers; keep one", r.ID)
			case r.On.declared() || inTable:
			case len(r.Tools) > 0 && !slices.Contains(r.Tools, "Bash") && !slices.Contains(r.Tools, "PowerShell"):
				// file tools only: the tool is the index
			default:
				t.Errorf("%s: runs on every call without saying so: give it Cmds (programs), On(Fact…, progs…), or Any(\"why\")", r.ID)
			}
		}
	}
	for id := range builtinTriggers() {
		if !ids[id] {
			t.Errorf("builtinTriggers names %s, which is no built-in rule", id)
		}
	}
}

// A trigger is a necessary condition: wherever a rule's Match fires (its
// own catch and allow cases, the benign and destructive corpora), the
// trigger must hold, or the engine would skip a call the rule denies.
func TestTriggersAreSound(t *testing.T) {
	e := TestEngine(Builtin(), nil, Options{})
	e.once.Do(e.index)
	inputs := triggerInputs(t, e)
	checked := 0
	for _, in := range inputs {
		c, err := CaseCall(in, TestHome, TestProject)
		if err != nil {
			continue
		}
		f := Normalize(c)
		for _, r := range e.always {
			if r.on.AnyWhy != "" || !r.runsOn(f.Event) || !r.forTool(f.Tool) {
				continue
			}
			env := &Env{F: f, Opts: &e.opts, ctx: context.Background(), git: e.Git, gitBranch: e.GitBranch}
			if e.match(r, env) == "" {
				continue
			}
			checked++
			sh := shapeOf(f)
			if !r.on.fires(&sh, env) {
				t.Errorf("%s fires on %q, but its trigger does not hold there: widen the trigger", r.ID, in)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no triggered rule fired on any input")
	}
}

// An engine scans its rules' program names and reads each rule's trigger
// for its first calls, and looks them up in its indexes after (cmdIndex):
// both find the same rules in the same order, so every hit, and the hit
// that decides, is the same.
func TestScanAndIndexAgree(t *testing.T) {
	warm := TestEngine(Builtin(), nil, Options{})
	for i := 0; i <= scanCalls; i++ {
		evalCommand(warm, "true")
	}
	if m, x := warm.cmdIndex(); m == nil || x == nil {
		t.Fatal("the warmed engine has no index")
	}
	var inputs []string
	for _, r := range warm.rules {
		inputs = append(inputs, r.Catch...)
		inputs = append(inputs, r.Allow...)
	}
	inputs = append(inputs, readCorpus(t, "benign.txt")...)
	inputs = append(inputs, readCorpus(t, "destructive.txt")...)
	for _, in := range inputs {
		c, err := CaseCall(in, TestHome, TestProject)
		if err != nil {
			continue
		}
		cold := TestEngine(Builtin(), nil, Options{}) // scans
		a := cold.Evaluate(context.Background(), Normalize(c))
		b := warm.Evaluate(context.Background(), Normalize(c))
		if a.Decision != b.Decision || !slices.Equal(a.Hits, b.Hits) {
			t.Errorf("%q: scanning gives %s %v, the index %s %v", in, a.Decision, a.Hits, b.Decision, b.Hits)
		}
	}
}

// The trigger index selects exactly the rules whose trigger holds, each
// rule's Trigger.fires read alone, on every case and corpus line, for the
// shell and for the file tools.
func TestTriggerIndexAgrees(t *testing.T) {
	e := TestEngine(Builtin(), nil, Options{})
	e.once.Do(e.index)
	x := newTriggerIndex(e.always)
	inputs := triggerInputs(t, e)
	selected := 0
	for _, in := range inputs {
		c, err := CaseCall(in, TestHome, TestProject)
		if err != nil {
			continue
		}
		f := Normalize(c)
		env := &Env{F: f, Opts: &e.opts, ctx: context.Background(), git: e.Git, gitBranch: e.GitBranch}
		sh := shapeOf(f)
		sel := newRuleSet(len(e.always))
		x.selectRules(&sh, env, sel)
		for j, r := range e.always {
			one := shapeOf(f)
			want := r.on.fires(&one, &Env{F: f, Opts: &e.opts, ctx: context.Background(), git: e.Git, gitBranch: e.GitBranch})
			if sel.has(j) != want {
				t.Errorf("%q: the trigger index selects %s: %v, its trigger says %v", in, r.ID, sel.has(j), want)
			}
			if want {
				selected++
			}
		}
	}
	if selected == 0 {
		t.Fatal("no rule selected on any input")
	}
}

// triggerInputs are the commands the trigger tests read: every rule's
// catch and allow cases and the benign and destructive corpora.
func triggerInputs(t *testing.T, e *Engine) []string {
	var inputs []string
	for _, r := range e.rules {
		inputs = append(inputs, r.Catch...)
		inputs = append(inputs, r.Allow...)
	}
	inputs = append(inputs, readCorpus(t, "benign.txt")...)
	return append(inputs, readCorpus(t, "destructive.txt")...)
}

// The triggers read from the commands' names and arguments (Words,
// FactOddName, FactGrepName, FactScriptPath) wake rules that used to run
// on every line or on any "/" of it: wherever such a rule fires, over
// the rule cases and every corpus file, its trigger must hold.
func TestCommandWordTriggersAreSound(t *testing.T) {
	e := TestEngine(Builtin(), nil, Options{})
	e.once.Do(e.index)
	var worded []*prepared
	for _, r := range e.always {
		if r.on.AnyWhy == "" && (len(r.on.Words) > 0 || r.on.Facts&(FactOddName|FactGrepName|FactScriptPath) != 0) {
			worded = append(worded, r)
		}
	}
	if len(worded) < 5 {
		t.Fatalf("only %d rules have command-word triggers", len(worded))
	}
	fired := map[string]int{}
	for _, in := range append(triggerInputs(t, e), corpusLines(t)...) {
		c, err := CaseCall(in, TestHome, TestProject)
		if err != nil {
			continue
		}
		f := Normalize(c)
		for _, r := range worded {
			if !r.runsOn(f.Event) || !r.forTool(f.Tool) {
				continue
			}
			env := &Env{F: f, Opts: &e.opts, ctx: context.Background(), git: e.Git, gitBranch: e.GitBranch}
			if e.match(r, env) == "" {
				continue
			}
			fired[r.ID]++
			sh := shapeOf(f)
			if !r.on.fires(&sh, &Env{F: f}) {
				t.Errorf("%s fires on %q, but its trigger does not hold there: widen the trigger", r.ID, in)
			}
		}
	}
	for _, r := range worded {
		if fired[r.ID] == 0 {
			t.Errorf("%s fired on no input: its trigger is not checked", r.ID)
		}
	}
}

// argWords lowers as strings.ToLower does, ASCII or not, and keeps the
// arguments apart.
func TestArgWords(t *testing.T) {
	c, _ := CaseCall(`aws s3 cp f s3://b/ --ACL Public-Read && echo "ÜBER Straße" KELVIN`, TestHome, TestProject)
	f := Normalize(c)
	got := (&Env{F: f}).argWords()
	var want strings.Builder
	for _, c := range f.Commands {
		for _, a := range append(append([]string{}, c.Args...), c.Pos...) {
			want.WriteString(strings.ToLower(a) + "\x00")
		}
	}
	if got != want.String() {
		t.Errorf("argWords = %q, want %q", got, want.String())
	}
	for _, w := range []string{"public-read", "--acl", "über straße"} {
		if !strings.Contains(got, w) {
			t.Errorf("argWords lacks %q: %q", w, got)
		}
	}
	if strings.Contains(got, "f\x00s3") == strings.Contains(got, "fs3") {
		t.Errorf("arguments run together: %q", got)
	}
}
