package policy

import (
	"maps"
	"slices"
	"testing"
)

// A rule gated by remote action (actgates.go) must never fire on a line
// whose commands of its programs lack the action it names: every rule
// case and the corpora's lines are run through each gated rule directly,
// and where it fires the gate must hold.
func TestActGatesAreSound(t *testing.T) {
	checkProgGatesSound(t, "actgates.go", func(r *prepared) bool { return r.act != "" }, slices.Collect(maps.Keys(builtinActGates())),
		(*Env).actGateOpen, "no command of its programs there has the remote action its gate names: fix its entry in actgates.go")
}
