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
	rules ruleSet
}

// wordTrigger is one word of the commands' arguments and the rules it
// wakes.
type wordTrigger struct {
	word  string
	rules ruleSet
}

// triggerIndex is Engine.always's triggers, indexed once per engine.
type triggerIndex struct {
	n     int
	any   ruleSet            // Any("why"): every call of their tools
	fact  [factCount]ruleSet // per fact bit, FactTouch aside
	touch ruleSet            // FactTouch: read lazily, only when it can add a rule
	prog  map[string]ruleSet // per program name
	text  []textTrigger      // per distinct word of the line
	// textM finds the words of text a line holds in one pass over it
	// (textmatch.go), nil when there are none.
	textM *textMatcher
	// words are the rules' Trigger.Words, one entry per distinct word;
	// wordsM finds those the call's arguments hold in one pass over them
	// (argWords's text, read without building it), nil when there are none.
	words  []wordTrigger
	wordsM *textMatcher
	// touchIn are the rules whose FactTouch is narrowed to zones
	// (Trigger.zones), one set per distinct narrowing: read lazily too.
	touchIn []zonedRules
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
				x.text = append(x.text, textTrigger{word: w, rules: newRuleSet(n)})
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
	if len(x.text) > 0 {
		ws := make([]string, len(x.text))
		for k := range x.text {
			ws[k] = x.text[k].word
		}
		x.textM = newTextMatcher(ws)
	}
	if len(x.words) > 0 {
		ws := make([]string, len(x.words))
		for k := range x.words {
			ws[k] = x.words[k].word
		}
		x.wordsM = newTextMatcher(ws)
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
	if m := x.textM; m != nil {
		line := e.F.Command
		st := int32(0)
		for i := 0; i < len(line); i++ {
			if st = m.step(st, line[i]); m.emitsAt(st) {
				for _, k := range m.out[st] {
					sel.or(x.text[k].rules)
				}
			}
		}
	}
	if x.wordsM != nil {
		x.selectArgWords(e.F.Commands, sel)
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

// selectArgWords adds to sel the rules of the words (Trigger.Words) the
// arguments of cmds hold, read as Env.argWords reads them.
func (x *triggerIndex) selectArgWords(cmds []Cmd, sel ruleSet) {
	st := int32(0)
	for i := range cmds {
		for _, a := range cmds[i].Args {
			st = x.argWordsIn(st, a, sel)
		}
		for _, a := range cmds[i].Pos {
			st = x.argWordsIn(st, a, sel)
		}
	}
}

// argWordsIn reads one argument into the arguments' matcher as argWords
// writes it (writeLower: lowered, then a NUL), from state st, and adds
// the rules of the words it completes; it returns the state after it.
// Reading the arguments in place spares building argWords's text, and
// one pass replaces a strings.Contains per word.
func (x *triggerIndex) argWordsIn(st int32, a string, sel ruleSet) int32 {
	m := x.wordsM
	ascii := true
	for i := 0; i < len(a); i++ {
		if a[i] >= 0x80 {
			ascii = false
			a = strings.ToLower(a)
			break
		}
	}
	for i := 0; i <= len(a); i++ {
		b := byte(0) // the NUL after the argument
		if i < len(a) {
			b = a[i]
			if ascii && 'A' <= b && b <= 'Z' {
				b += 'a' - 'A'
			}
		}
		if st = m.step(st, b); m.emitsAt(st) {
			for _, k := range m.out[st] {
				sel.or(x.words[k].rules)
			}
		}
	}
	return st
}
