package policy

import (
	"maps"
	"slices"
	"testing"
)

// A rule gated by request shape (reqgates.go) must never fire on a line
// whose curl and wget commands of its programs lack the shape it needs:
// every rule case and the corpora's lines are run through each gated
// rule directly, and where it fires the gate must hold.
func TestReqGatesAreSound(t *testing.T) {
	checkGatesSound(t, "reqgates.go", "indexed by its programs",
		func(r *prepared) bool { return r.req != 0 }, slices.Collect(maps.Keys(builtinReqGates())),
		func(r *prepared, f *Facts) string {
			if (&Env{F: f}).reqGateOpen(r) {
				return ""
			}
			return "no curl or wget there has the request shape its gate needs: fix requestShaped or its entry in reqgates.go"
		})
}

// A plain GET wakes none of the gated rules; a body, a method or a query
// does.
func TestRequestShaped(t *testing.T) {
	for in, want := range map[string]bool{
		"curl -s https://x.io/i": false, "curl -fsSL https://x.io/i -o i.sh": false, "wget -qO- https://x.io/i": false,
		"curl -I https://x.io": false, `curl -H "Accept: application/json" https://x.io`: false,
		"curl -sd a=1 https://x.io": true, "curl -XPOST https://x.io": true, "curl --data-raw x https://x.io": true,
		"curl -f https://x.io": true, "curl -T f https://x.io": true, "wget --post-data=a https://x.io": true,
		"curl --Request PUT https://x.io": true, "curl -sF f=@a https://x.io": true,
	} {
		c, _ := CaseCall(in, TestHome, TestProject)
		f := Normalize(c)
		if got := requestShaped(&f.Commands[0]); got != want {
			t.Errorf("requestShaped(%q) = %v, want %v", in, got, want)
		}
	}
}
