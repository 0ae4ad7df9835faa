package policy

import (
	"context"
	"slices"
	"testing"
)

// A zone-gated rule (zonegates.go) must never fire on a line whose every
// path lies in the project or temp: every rule case and corpus line is
// run through each gated rule directly, and where it fires the gate must
// be open.
func TestZoneGatesAreSound(t *testing.T) {
	e := TestEngine(Builtin(), nil, Options{})
	e.once.Do(e.index)
	var gated []*prepared
	for _, r := range e.rules {
		if r.zoned {
			gated = append(gated, r)
		}
	}
	for id := range builtinZoneGates() {
		if !slices.ContainsFunc(gated, func(r *prepared) bool { return r.ID == id }) {
			t.Errorf("zonegates.go lists %s, which is no built-in rule: drop or fix the entry", id)
		}
	}
	checked := 0
	for _, in := range append(triggerInputs(t, e), corpusLines(t)...) {
		c, err := CaseCall(in, TestHome, TestProject)
		if err != nil {
			continue
		}
		f := withoutDevPlaces(Normalize(c).WithoutHelp())
		sh := shapeOf(f)
		gate := &Env{F: f}
		for _, r := range gated {
			if !r.runsOn(f.Event) || !r.forTool(f.Tool) {
				continue
			}
			env := &Env{F: f, Opts: &e.opts, ctx: context.Background(), git: e.Git, gitBranch: e.GitBranch}
			if e.match(r, env) == "" {
				continue
			}
			checked++
			if !gate.zoneGateOpen(&sh) {
				t.Errorf("%s fires on %q, whose paths all lie in the project or temp: drop its entry in zonegates.go", r.ID, in)
			}
		}
	}
	if checked == 0 && len(gated) > 0 {
		t.Fatal("no gated rule fired on any input")
	}
}

// The gate closes on a line whose paths are the project's or temp's, and
// opens on one that names a path elsewhere or carries code.
func TestZoneGateOpen(t *testing.T) {
	for in, want := range map[string]bool{
		"rm -rf ./build dist": false, "go test ./... | tee out.log": false, "rm -rf /tmp/x": false, "ls -la": false,
		"rm -rf ~/x": true, "rm -rf build ~/.warden": true, "cp a /etc/x": true, "rm -rf .git": true, "rm -rf .claude": true,
		`bash -c "rm -rf build"`: true, "ssh h rm -rf build": true, "rm -rf $DIR": true, "cat id_rsa": true, "echo x >> ~/.bashrc": true,
	} {
		c, _ := CaseCall(in, TestHome, TestProject)
		f := withoutDevPlaces(Normalize(c).WithoutHelp())
		sh := shapeOf(f)
		if got := (&Env{F: f}).zoneGateOpen(&sh); got != want {
			t.Errorf("zoneGateOpen(%q) = %v, want %v", in, got, want)
		}
	}
}
