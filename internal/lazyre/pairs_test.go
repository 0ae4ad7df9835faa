package lazyre

import "testing"

// MayHold never rules out a text the regexp matches.
func TestMayHoldKeepsMatches(t *testing.T) {
	pats := []string{`(?im)online-mode\s*=\s*false`, `(?im)^\s*#\s*requirepass\b|requirepass\s+(""|''|$)|protected-mode\s+no\b`, `(?i)allow_anonymous\s*[= ]\s*true`, `x`, `(?i)ab|CD`, `\.z\.pw\s*:`}
	texts := []string{"online-mode=false", "ONLINE-MODE = FALSE", "# requirepass", "protected-mode no", "Allow_Anonymous true", "x", "aB", "cd", "Cd", ".z.pw:{[u;p]1b}", "status", "./...", "out.log", "feature/x", ""}
	for _, p := range pats {
		r := New(p)
		for _, s := range texts {
			ps, ok := PairsOf(s)
			if !ok {
				continue
			}
			if !r.MayHold(ps) && r.get().MatchString(s) {
				t.Errorf("%s: MayHold rules out %q, which matches", p, s)
			}
		}
	}
}
