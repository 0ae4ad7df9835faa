package gates

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSelfToggleLeavesLookAlikes: the gate denies none of the policy
// corpus's harmless look-alikes (decoders, printf, warden's own read-only
// commands among them) nor the everyday commands of the benign corpus.
func TestSelfToggleLeavesLookAlikes(t *testing.T) {
	files, err := filepath.Glob("../policy/corpus/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	held, _ := filepath.Glob("../policy/corpus/heldout/*.txt")
	var cmds []string
	for _, f := range append(files, held...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if exp, cmd, _ := strings.Cut(l, " "); exp == "allow" || exp == "quiet" {
				cmds = append(cmds, strings.NewReplacer("⏎", "\n", "⇥", "\t").Replace(cmd))
			}
		}
	}
	b, err := os.ReadFile("../policy/testdata/benign.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" && l[0] != '#' {
			cmds = append(cmds, l)
		}
	}
	if len(cmds) < 900 {
		t.Fatalf("only %d look-alikes read: the corpus files moved", len(cmds))
	}
	for _, cmd := range cmds {
		if what, ok := SelfToggle(cmd); ok {
			t.Errorf("SelfToggle(%q) flags %q", cmd, what)
		}
	}
}
