package policy

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// A whole-tree discard is denied over uncommitted work, allowed on a
// clean tree, and asked — never denied — when git cannot say.
func TestGitDiscardLevels(t *testing.T) {
	cases := []struct {
		name string
		git  func(context.Context, string) (bool, error)
		want Mode
		note string
	}{
		{"dirty", func(context.Context, string) (bool, error) { return true, nil }, Deny, "uncommitted changes"},
		{"clean", func(context.Context, string) (bool, error) { return false, nil }, "", ""},
		{"unknown", func(context.Context, string) (bool, error) { return false, errors.New("git status: timed out") }, Ask, "could not check"},
	}
	for _, tc := range cases {
		for _, cmd := range []string{"git reset --hard origin/main", "git clean -fdx", "git checkout -- ."} {
			e := TestEngine(Builtin(), nil, Options{})
			e.Git = tc.git
			call, _ := CaseCall(cmd, TestHome, TestProject)
			res := e.Evaluate(context.Background(), Normalize(call))
			var got Mode
			var reasons []string
			for _, h := range res.Hits {
				if strings.HasPrefix(h.ID, "core.git:reset-hard") || strings.HasPrefix(h.ID, "core.git:clean-force") || strings.HasPrefix(h.ID, "core.git:checkout-all") {
					got = h.Mode
					reasons = append(reasons, h.Reason)
				}
			}
			if got != tc.want {
				t.Errorf("%s: %q: got %s, want %s (%v)", tc.name, cmd, got, tc.want, reasons)
			}
			if tc.note != "" && (len(reasons) == 0 || !strings.Contains(reasons[0], tc.note)) {
				t.Errorf("%s: %q: reason %v does not say %q", tc.name, cmd, reasons, tc.note)
			}
		}
	}
}
