//go:build unix

package hookserve

import (
	"strings"
	"testing"
)

// TestWithdrawnRequestIsLeftAlone: a request whose client took its claim
// back (it waited for an answer in vain while this server was stalled,
// and runs the hook itself) is declined without a byte read from its
// stdin and without a row: the hook is its client's to run and record,
// once. The next request, claim intact, is served as ever.
func TestWithdrawnRequestIsLeftAlone(t *testing.T) {
	r := newRig(t, Options{})
	res := r.do(t, call{args: hookArgs(), stdin: preToolUse("w", r.home, "ls"), withdrawn: true})
	if res.err != nil || !res.declined || res.stdout != "" || res.stderr != "" {
		t.Fatalf("withdrawn request: %+v, want declined and nothing written", res)
	}
	if !strings.Contains(r.log.String(), "stopped waiting") {
		t.Errorf("the decline's reason is not logged:\n%s", r.log.String())
	}
	if n := len(r.events(t)); n != 0 {
		t.Fatalf("a withdrawn request left %d rows", n)
	}
	res = r.do(t, call{args: hookArgs(), stdin: preToolUse("w", r.home, "ls")})
	if res.err != nil || res.declined || res.code != 0 {
		t.Fatalf("the next request: %+v", res)
	}
	if evs := r.events(t); len(evs) != 1 || evs[0].Error != "" {
		t.Fatalf("rows after one served hook: %+v", evs)
	}
}
