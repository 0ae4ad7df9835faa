package gates

import (
	"os"
	"strings"
	"testing"
)

// wrappedCase is one line of testdata/wrapped.txt.
type wrappedCase struct {
	change bool
	cmd    string
}

// loadWrapped reads testdata/wrapped.txt: changes however they are
// wrapped, and reads however they are wrapped.
func loadWrapped(t *testing.T) []wrappedCase {
	t.Helper()
	b, err := os.ReadFile("testdata/wrapped.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out []wrappedCase
	for _, l := range strings.Split(string(b), "\n") {
		if l == "" || l[0] == '#' {
			continue
		}
		kind, cmd, _ := strings.Cut(l, " ")
		if kind != "change" && kind != "read" {
			t.Fatalf("wrapped.txt: bad line %q", l)
		}
		out = append(out, wrappedCase{kind == "change", strings.ReplaceAll(cmd, "⏎", "\n")})
	}
	if len(out) < 150 {
		t.Fatalf("only %d cases in wrapped.txt", len(out))
	}
	return out
}

// TestSafemodeDeniesWrappedChanges: every change, behind any wrapper,
// shell, payload, fan-out or disguise, is a mutation (safemode denies
// it); every read behind the same wrappers is not.
func TestSafemodeDeniesWrappedChanges(t *testing.T) {
	changes, caught, reads, flagged := 0, 0, 0, 0
	for _, c := range loadWrapped(t) {
		got, why := BashMutation(c.cmd)
		switch {
		case c.change:
			changes++
			if got {
				caught++
			} else {
				t.Errorf("safemode lets %q through", c.cmd)
			}
		default:
			reads++
			if got {
				flagged++
				t.Errorf("safemode denies the read %q (%s)", c.cmd, why)
			}
		}
	}
	t.Logf("changes denied %d/%d, reads denied %d/%d", caught, changes, flagged, reads)
}
