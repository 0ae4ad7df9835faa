package gates

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// TestClassifyLabelledPrompts checks the classifier against prompts
// labelled by hand (testdata/prompts.tsv): every label must match.
func TestClassifyLabelledPrompts(t *testing.T) {
	f, err := os.Open("testdata/prompts.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	counts := map[Kind]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		kind, prompt, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("bad line %q", line)
		}
		prompt = strings.ReplaceAll(prompt, `\n`, "\n")
		n++
		counts[Kind(kind)]++
		if got := Classify(prompt); got != Kind(kind) {
			t.Errorf("Classify(%q) = %s, want %s", prompt, got, kind)
		}
	}
	if n < 100 {
		t.Errorf("only %d labelled prompts; want at least 100", n)
	}
	for _, k := range []Kind{Passthrough, Question, Task, BigTask} {
		if counts[k] < 8 {
			t.Errorf("only %d %s prompts", counts[k], k)
		}
	}
}
