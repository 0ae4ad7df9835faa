package replay_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/policy"
	"github.com/warden-dev/warden/internal/replay"
)

const candidateRules = `
[[rule]]
id = "team.net:curl"
description = "downloads need a confirmation"
mode = "ask"
commands = ["curl", "wget"]

[[rule]]
id = "team.files:plans"
mode = "deny"
tools = ["Read"]
paths = ["**/docs/plans/**"]
`

const candidateConfig = `
[policy]
modes = ["core.destroy=warn", "core.git:push-force=audit"]
`

// The decisions a candidate changes, as replay reports them, are exactly
// those a direct evaluation of the same calls by the two engines finds
// different.
func TestCandidateChangesEqualDirectEvaluation(t *testing.T) {
	fx := newFixture(t, 3000)
	home := t.TempDir() // WARDEN_HOME: no user rules, an empty config
	dir := t.TempDir()
	rulesFile := filepath.Join(dir, "candidate.toml")
	cfgFile := filepath.Join(dir, "config.toml")
	os.WriteFile(rulesFile, []byte(candidateRules), 0o644)
	os.WriteFile(cfgFile, []byte(candidateConfig), 0o644)
	extra, err := replay.LoadRules([]string{rulesFile})
	if err != nil {
		t.Fatal(err)
	}
	userCfg := filepath.Join(home, "config.toml")
	current := &replay.Policy{Name: "current", UserConfig: userCfg, WardenHome: home}
	candidate := &replay.Policy{Name: "candidate", UserConfig: cfgFile, WardenHome: home, Extra: extra}
	evs := fx.events(t)
	r := replay.Run(evs, replay.Options{Home: fx.home, Baseline: current, Candidate: candidate, Examples: len(evs)})

	if r.Calls != len(fx.calls) || r.Replayed != len(fx.calls) || len(r.NotReplayed) != 0 {
		t.Fatalf("calls %d, replayed %d, not replayed %v; want all %d", r.Calls, r.Replayed, r.NotReplayed, len(fx.calls))
	}
	var got []int64
	for _, c := range r.Changes {
		for _, e := range c.Examples {
			got = append(got, e.ID)
		}
	}
	slices.Sort(got)

	engine := func(cfgFile string, rules []policy.Rule) *policy.Engine {
		cfg, _ := config.Load(cfgFile, fx.project)
		e := policy.New(policy.Builtin(), rules, policy.OptionsFrom(cfg, home))
		e.Git = func(context.Context, string) (bool, error) { return false, errors.New("no git") }
		e.GitBranch = func(context.Context, string) string { return "" }
		return e
	}
	before, after := engine(userCfg, nil), engine(cfgFile, extra)
	outcome := func(e *policy.Engine, c policy.Call) string {
		res := e.Evaluate(context.Background(), policy.Normalize(c))
		if res.Decision == "" {
			return "allow"
		}
		return string(res.Decision)
	}
	var want []int64
	denied := 0
	for i, c := range fx.calls {
		call := policy.Call{Event: "PreToolUse", Tool: c.tool, Input: c.input, Cwd: fx.project, Home: fx.home, Project: fx.project}
		b, a := outcome(before, call), outcome(after, call)
		if a != b {
			want = append(want, evs[i].ID)
			if a == "deny" && b != "deny" {
				denied++
			}
		}
	}
	if len(want) == 0 {
		t.Fatal("the candidate changes nothing: the test proves nothing")
	}
	if !slices.Equal(got, want) {
		t.Errorf("replay changed %d calls, direct evaluation %d", len(got), len(want))
	}
	if r.Changed != len(want) || r.DenyIncrease != denied {
		t.Errorf("changed %d (want %d), deny increase %d (want %d)", r.Changed, len(want), r.DenyIncrease, denied)
	}
	byRule := map[string]bool{}
	for _, c := range r.Changes {
		byRule[c.Rule] = true
	}
	for _, id := range []string{"team.net:curl", "team.files:plans"} {
		if !byRule[id] {
			t.Errorf("no change grouped under %s", id)
		}
	}
	if !r.Fails(replay.FailDenyIncrease) || !r.Fails(replay.FailAnyChange) {
		t.Errorf("thresholds not crossed: %+v", r)
	}
}

// Calls recorded without their input are counted, with the reason, not
// silently dropped; the filter's fields choose calls.
func TestNotReplayableCountedAndFilter(t *testing.T) {
	fx := newFixture(t, 40)
	evs := fx.events(t)
	evs[0].Raw = nil
	evs[1].Raw = []byte(`{"hook_event_name":"PreToolUse","tool_name":"Write","cwd":"/x","warden_input_omitted":99999}`)
	home := t.TempDir()
	cur := &replay.Policy{Name: "current", UserConfig: filepath.Join(home, "config.toml"), WardenHome: home}
	r := replay.Run(evs, replay.Options{Home: fx.home, Candidate: cur})
	skips := map[string]int{}
	for _, s := range r.NotReplayed {
		skips[s.Reason] = s.Count
	}
	if skips[replay.SkipNoInput] != 1 || skips[replay.SkipTooLarge] != 1 || r.Replayed+r.OtherHandler != 38 {
		t.Errorf("not replayed %v, replayed %d", r.NotReplayed, r.Replayed)
	}
	r = replay.Run(evs, replay.Options{Home: fx.home, Candidate: cur, Filter: replay.Filter{Tool: "write", Session: "sess-0"}})
	if r.Calls != 4 { // i%10 == 8 in sess-0 (even i): 8, 18, 28, 38
		t.Errorf("filter chose %d calls, want 4", r.Calls)
	}
	r = replay.Run(evs, replay.Options{Home: fx.home, Candidate: cur, Filter: replay.Filter{Project: "/elsewhere"}})
	if r.Calls != 0 {
		t.Errorf("--project elsewhere chose %d calls", r.Calls)
	}
}
