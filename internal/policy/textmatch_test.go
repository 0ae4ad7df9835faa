package policy

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestTextMatcherAgrees: the matcher finds exactly the words
// strings.Contains finds, on the rules' own trigger words over lines made
// of their pieces (overlapping words, a word inside another, repeats).
func TestTextMatcherAgrees(t *testing.T) {
	words := []string{"he", "she", "his", "hers", "/dev/tcp/", "dev", "a", "aa", "aaa", "ab", "b", "é", "\x00x"}
	e := TestEngine(Builtin(), nil, Options{})
	e.once.Do(e.index)
	for _, r := range e.always {
		for _, w := range r.on.Text {
			if w != "" && !slices.Contains(words, w) {
				words = append(words, w)
			}
		}
	}
	m := newTextMatcher(words)
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		for k := rng.IntN(6); k >= 0; k-- {
			w := words[rng.IntN(len(words))]
			if rng.IntN(3) == 0 && len(w) > 1 {
				w = w[rng.IntN(len(w)):] // a word's tail: a partial match
			}
			b.WriteString(w)
			if rng.IntN(2) == 0 {
				b.WriteByte(" -/.x"[rng.IntN(5)])
			}
		}
		line := b.String()
		got := make([]bool, len(words))
		st := int32(0)
		for i := 0; i < len(line); i++ {
			st = m.step(st, line[i])
			for _, k := range m.out[st] {
				got[k] = true
			}
		}
		for k, w := range words {
			if want := strings.Contains(line, w); got[k] != want {
				t.Fatalf("%q holds %q: matcher says %v, strings.Contains %v", line, w, got[k], want)
			}
		}
	}
}

// TestArgWordsInAgrees: reading the arguments in place (argWordsIn)
// selects the rules strings.Contains selects over argWords's text, for
// arguments in any case, non-ASCII ones (the Kelvin sign lowers to k)
// and words split across two arguments (never found).
func TestArgWordsInAgrees(t *testing.T) {
	e := TestEngine(Builtin(), nil, Options{})
	e.once.Do(e.index)
	x := newTriggerIndex(e.always)
	if x.wordsM == nil {
		t.Skip("no rule has Trigger.Words")
	}
	pieces := []string{"-", "--", "=", "/", "X", "\u212a", "İ", "é"}
	for _, w := range x.words {
		pieces = append(pieces, w.word, strings.ToUpper(w.word), w.word[:len(w.word)/2], w.word[len(w.word)/2:])
	}
	rng := rand.New(rand.NewPCG(3, 4))
	arg := func() string {
		var b strings.Builder
		for k := rng.IntN(3); k >= 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	for n := 0; n < 5000; n++ {
		var cmds []Cmd
		for k := rng.IntN(3); k >= 0; k-- {
			var c Cmd
			for j := rng.IntN(3); j >= 0; j-- {
				c.Args = append(c.Args, arg())
				c.Pos = append(c.Pos, arg())
			}
			cmds = append(cmds, c)
		}
		env := &Env{F: &Facts{Commands: cmds}}
		want := newRuleSet(x.n)
		for _, w := range x.words {
			if strings.Contains(env.argWords(), w.word) {
				want.or(w.rules)
			}
		}
		got := newRuleSet(x.n)
		x.selectArgWords(cmds, got)
		if !slices.Equal(got, want) {
			t.Fatalf("%q: argWordsIn selects %v, strings.Contains over argWords %v", env.argWords(), got, want)
		}
	}
}
