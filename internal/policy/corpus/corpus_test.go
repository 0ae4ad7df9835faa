package corpus

import (
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/policy"
)

// The corpus holds at least 400 cases, every risky one is caught and no
// look-alike is denied or asked; the per-class table is logged.
func TestCorpus(t *testing.T) {
	cases, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 400 {
		t.Fatalf("corpus has %d cases, want at least 400", len(cases))
	}
	rs := Run(policy.TestEngine(policy.Builtin(), nil, policy.Options{}), cases)
	for _, r := range rs {
		if !r.OK {
			t.Errorf("%s: %q: expected %s, got %s (%s)", r.Source, r.Command, r.Expect, r.Got, r.Rule)
		}
	}
	for _, s := range Report(rs) {
		t.Logf("%-12s recall %3d/%-3d %5.1f%%  false flags %d/%d", s.Class, s.Caught, s.Risky, 100*s.Recall, s.FalseFlags, s.LookAlikes)
	}
}

// Holds is what the expectations mean.
func TestHolds(t *testing.T) {
	for _, c := range []struct {
		exp, got string
		ok       bool
	}{{"flag", "deny", true}, {"flag", "ask", true}, {"flag", "audit", false}, {"audit", "audit", true}, {"audit", "ask", true},
		{"audit", "allow", false}, {"allow", "audit", true}, {"allow", "ask", false}, {"quiet", "allow", true}, {"quiet", "audit", false},
		{"deny", "ask", false}, {"ask", "ask", true}} {
		if Holds(c.exp, c.got) != c.ok {
			t.Errorf("Holds(%s, %s) = %v", c.exp, c.got, !c.ok)
		}
	}
}

// A file's lines are in its own class until "@class NAME"; a bad line
// names the file and line.
func TestParseClasses(t *testing.T) {
	cs, err := Parse("dir/set.txt", []byte("# c\nflag rm -rf /\n@class remote\nallow ssh h uptime\r\nask a⏎b\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 3 || cs[0].Class != "set" || cs[1].Class != "remote" || cs[2].Class != "remote" ||
		cs[1].Command != "ssh h uptime" || cs[2].Command != "a\nb" || cs[2].Source != "dir/set.txt:5" {
		t.Fatalf("parsed %+v", cs)
	}
	if _, err := Parse("x.txt", []byte("flag ok\nmaybe rm -rf /\n")); err == nil || !strings.Contains(err.Error(), "x.txt:2") {
		t.Fatalf("bad line: %v", err)
	}
}
