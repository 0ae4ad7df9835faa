package policy

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"
)

func readCorpus(t testing.TB, name string) []string {
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, l)
	}
	return out
}

func evalCommand(e *Engine, cmd string) *Result {
	c, _ := CaseCall(cmd, TestHome, TestProject)
	return e.Evaluate(context.Background(), Normalize(c))
}

// The benign corpus: everyday developer commands. None may be denied, and
// none may ask either (an ask on routine work trains users to click yes).
func TestBenignCorpus(t *testing.T) {
	cmds := readCorpus(t, "benign.txt")
	if len(cmds) < 300 {
		t.Fatalf("benign corpus has %d commands, want at least 300", len(cmds))
	}
	e := TestEngine(Builtin(), nil, Options{})
	counts := map[Mode]int{}
	for _, cmd := range cmds {
		r := evalCommand(e, cmd)
		counts[r.Decision]++
		if r.Decision == Deny || r.Decision == Ask {
			top := r.Top()
			t.Errorf("benign command %q: %s by %s: %s", cmd, r.Decision, top.ID, top.Reason)
		}
	}
	t.Logf("benign corpus: %d commands: %d allow, %d audit, %d warn, %d ask, %d deny",
		len(cmds), counts[""], counts[Audit], counts[Warn], counts[Ask], counts[Deny])
}

// The destructive corpus: every command must be denied or asked.
func TestDestructiveCorpus(t *testing.T) {
	cmds := readCorpus(t, "destructive.txt")
	if len(cmds) < 300 {
		t.Fatalf("destructive corpus has %d commands, want at least 300", len(cmds))
	}
	e := TestEngine(Builtin(), nil, Options{})
	counts := map[Mode]int{}
	for _, cmd := range cmds {
		r := evalCommand(e, cmd)
		counts[r.Decision]++
		if r.Decision != Deny && r.Decision != Ask {
			t.Errorf("destructive command %q: got %q, want deny or ask", cmd, r.Decision)
		}
	}
	t.Logf("destructive corpus: %d commands: %d deny, %d ask, %d missed",
		len(cmds), counts[Deny], counts[Ask], len(cmds)-counts[Deny]-counts[Ask])
}
