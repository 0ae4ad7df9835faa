package policy

import (
	"math/bits"
	"slices"
	"strings"
)

// The rules not indexed by program (Engine.always) are indexed by their
// declared triggers, as the others are by Cmds: a call's facts, program
// names and words select the rules that can fire, instead of each rule's
// trigger being read in turn. The index is built from the triggers the
// rules declare (Rule.On, builtinTriggers), so a rule added with a trigger
// is indexed with no edit here; it selects exactly the rules whose
// Trigger.fires holds (TestTriggerIndexAgrees), in rule order.

// ruleSet is a set of rules by position (in Engine.always, Engine.rules).
type ruleSet []uint64

func newRuleSet(n int) ruleSet { return make(ruleSet, (n+63)/64) }

func (s ruleSet) add(i int)      { s[i/64] |= 1 << (i % 64) }
func (s ruleSet) has(i int) bool { return s[i/64]&(1<<(i%64)) != 0 }
func (s ruleSet) or(o ruleSet)   { orInto(s, o) }
func orInto(dst ruleSet, src ruleSet) {
	for i := range src {
		dst[i] |= src[i]
	}
}

// anyOutside reports whether s holds a rule that sel does not (sel nil:
// whether s holds any).
func (s ruleSet) anyOutside(sel ruleSet) bool {
	for i, w := range s {
		if sel != nil {
			w &^= sel[i]
		}
		if w != 0 {
			return true
		}
	}
	return false
}

// zonedRules are the rules woken by an effect on a path in zones.
type zonedRules struct {
	zones zoneMask
	rules ruleSet
}

// factCount is the number of Fact bits.
const factCount = 32

type textTrigger struct {
	word  string
	bytes byteSet // the word's bytes: a line lacking one cannot hold it
	rules ruleSet
}

// wordTrigger is one word of the commands' arguments and the rules it
// wakes.
type wordTrigger struct {
	word  string
	rules ruleSet
}

// byteSet is a set of byte values.
type byteSet [4]uint64

func (b *byteSet) addString(s string) {
	for i := 0; i < len(s); i++ {
		b[s[i]/64] |= 1 << (s[i] % 64)
	}
}

// within reports whether every byte of b is in o.
func (b *byteSet) within(o *byteSet) bool {
	return b[0]&^o[0]|b[1]&^o[1]|b[2]&^o[2]|b[3]&^o[3] == 0
}

// triggerIndex is Engine.always's triggers, indexed once per engine.
type triggerIndex struct {
	n     int
	any   ruleSet            // Any("why"): every call of their tools
	fact  [factCount]ruleSet // per fact bit, FactTouch aside
	touch ruleSet            // FactTouch: read lazily, only when it can add a rule
	prog  map[string]ruleSet // per program name
	text  []textTrigger      // per distinct word of the line
	// byByte lists the words (indexes into text) by their rarest byte
	// (keyByte): a call reads only the words keyed by a byte its line
	// has, not every word, as most lines lack most bytes.
	byByte [256][]int32
	// words are the rules' Trigger.Words, one entry per distinct word:
	// read lazily, only when one can add a rule (Env.argWords).
	words []wordTrigger
	// touchIn are the rules whose FactTouch is narrowed to zones
	// (Trigger.zones), one set per distinct narrowing: read lazily too.
	touchIn []zonedRules
}

// commonBytes ranks the bytes most frequent in command lines, most
// frequent last; a byte not listed is rarer than any listed.
const commonBytes = "9876543210ABCDEFGHIJKLMNOPQRSTUVWXYZywvkbgfhpmudclrsnioat_=\"/.- "

// keyByte is the byte of w least likely in a line (commonBytes): the
// word is read only on lines that have it.
func keyByte(w string) byte {
	k, rank := w[0], len(commonBytes)
	for i := 0; i < len(w); i++ {
		r := strings.IndexByte(commonBytes, w[i])
		if r < 0 {
			return w[i]
		}
		if r < rank {
			k, rank = w[i], r
		}
	}
	return k
}

func newTriggerIndex(always []*prepared) *triggerIndex {
	n := len(always)
	x := &triggerIndex{n: n, any: newRuleSet(n), touch: newRuleSet(n), prog: map[string]ruleSet{}}
	words := map[string]int{}
	argWords := map[string]int{}
	for j, r := range always {
		t := &r.on
		if t.AnyWhy != "" {
			x.any.add(j)
			continue
		}
		for b := 0; b < factCount; b++ {
			f := Fact(1) << b
			if t.Facts&f == 0 {
				continue
			}
			if f == FactTouch {
				if t.zones == 0 {
					x.touch.add(j)
					continue
				}
				k := slices.IndexFunc(x.touchIn, func(z zonedRules) bool { return z.zones == t.zones })
				if k < 0 {
					k = len(x.touchIn)
					x.touchIn = append(x.touchIn, zonedRules{zones: t.zones, rules: newRuleSet(n)})
				}
				x.touchIn[k].rules.add(j)
				continue
			}
			if x.fact[b] == nil {
				x.fact[b] = newRuleSet(n)
			}
			x.fact[b].add(j)
		}
		for _, p := range t.Progs {
			s := x.prog[p]
			if s == nil {
				s = newRuleSet(n)
				x.prog[p] = s
			}
			s.add(j)
		}
		for _, w := range t.Text {
			if w == "" {
				x.any.add(j) // every line holds the empty word
				continue
			}
			k, ok := words[w]
			if !ok {
				k = len(x.text)
				words[w] = k
				t := textTrigger{word: w, rules: newRuleSet(n)}
				t.bytes.addString(w)
				x.text = append(x.text, t)
				b := keyByte(w)
				x.byByte[b] = append(x.byByte[b], int32(k))
			}
			x.text[k].rules.add(j)
		}
		for _, w := range t.Words {
			k, ok := argWords[w]
			if !ok {
				k = len(x.words)
				argWords[w] = k
				x.words = append(x.words, wordTrigger{word: w, rules: newRuleSet(n)})
			}
			x.words[k].rules.add(j)
		}
	}
	return x
}

// selectRules is the set of rules whose trigger holds on the call: the
// same rules as Trigger.fires, each fact, program and word read once.
func (x *triggerIndex) selectRules(s *shape, e *Env, sel ruleSet) {
	sel.or(x.any)
	for f := uint32(s.facts); f != 0; f &= f - 1 {
		if r := x.fact[bits.TrailingZeros32(f)]; r != nil {
			sel.or(r)
		}
	}
	if len(x.prog) > 0 {
		for i := range e.F.Commands {
			if r, ok := x.prog[e.F.Commands[i].Name]; ok {
				sel.or(r)
			}
		}
	}
	var line byteSet // the line's bytes, read once: most words are ruled out by one missing
	if len(x.text) > 0 {
		line.addString(e.F.Command)
	}
	for w, bs := range line {
		for ; bs != 0; bs &= bs - 1 {
			for _, k := range x.byByte[w*64+bits.TrailingZeros64(bs)] {
				t := &x.text[k]
				if t.rules.anyOutside(sel) && t.bytes.within(&line) && strings.Contains(e.F.Command, t.word) {
					sel.or(t.rules)
				}
			}
		}
	}
	for i := range x.words {
		if w := &x.words[i]; w.rules.anyOutside(sel) && strings.Contains(e.argWords(), w.word) {
			sel.or(w.rules)
		}
	}
	if x.touch.anyOutside(sel) && len(e.Touches()) > 0 {
		sel.or(x.touch)
	}
	for i := range x.touchIn {
		if z := &x.touchIn[i]; z.rules.anyOutside(sel) && z.zones&e.touchZones() != 0 {
			sel.or(z.rules)
		}
	}
}
