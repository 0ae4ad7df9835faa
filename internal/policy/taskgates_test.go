package policy

import (
	"maps"
	"slices"
	"testing"
)

// A rule gated by task words (taskgates.go) must never fire on a line
// whose commands of its programs hold none of its words: every rule case
// and the corpora's lines are run through each gated rule directly, and
// where it fires the gate must hold.
func TestTaskGatesAreSound(t *testing.T) {
	checkProgGatesSound(t, "taskgates.go", func(r *prepared) bool { return r.task != 0 }, slices.Collect(maps.Keys(builtinTaskGates())),
		(*Env).taskGateOpen, "no command of its programs there holds one of its words: fix its entry in taskgates.go")
}
