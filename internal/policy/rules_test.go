package policy

import (
	"testing"
)

// Every built-in rule ships at least 3 inputs it must catch and 3
// near-misses it must leave alone, and they all hold.
func TestBuiltinRuleCases(t *testing.T) {
	for _, p := range Builtin() {
		for _, r := range p.Rules {
			if len(r.Catch) < 3 || len(r.Allow) < 3 {
				t.Errorf("%s: needs at least 3 catch and 3 allow cases, has %d and %d", r.ID, len(r.Catch), len(r.Allow))
			}
			if !ValidID(r.ID) || packOf(r.ID) != p.Name {
				t.Errorf("%s: id must be <category>.<pack>:<rule> in pack %s", r.ID, p.Name)
			}
		}
	}
	for _, res := range RunRuleCases(Builtin()) {
		if !res.OK {
			t.Error(res.String())
		}
	}
}
