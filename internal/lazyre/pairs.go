package lazyre

import "unicode/utf8"

// Pairs is a set of hashed byte pairs (bigrams) of a text, ASCII lowered:
// a text that holds a literal holds every pair of it, so one set, read
// once from a text, answers for many patterns with a few ANDs what their
// literals' searches would (MayHold).
type Pairs [2]uint64

// PairsOf is the set of s's byte pairs; ok false when s is not ASCII (a
// case-insensitive pattern may then match by Unicode folding, K for k,
// and only the regexp can tell).
func PairsOf(s string) (p Pairs, ok bool) {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return Pairs{}, false
		}
		if i > 0 {
			p.add(s[i-1], s[i])
		}
	}
	return p, true
}

func (p *Pairs) add(a, b byte) {
	h := (uint(lower(a))*131 + uint(lower(b))) & 127
	p[h>>6] |= 1 << (h & 63)
}

func (p Pairs) within(of Pairs) bool { return p[0]&^of[0] == 0 && p[1]&^of[1] == 0 }

// pairsOfLit is the set of a literal's byte pairs, ASCII lowered.
func pairsOfLit(s string) Pairs {
	var p Pairs
	for i := 1; i < len(s); i++ {
		p.add(s[i-1], s[i])
	}
	return p
}

// MayHold reports whether an ASCII text whose pairs are p (PairsOf, ok)
// may hold a match: false only when every literal a match needs misses a
// pair of the text, which the text's search would also say.
func (l *Regexp) MayHold(p Pairs) bool {
	l.get()
	if l.pre == nil {
		return true
	}
	for _, m := range l.pre.pairs {
		if m.within(p) {
			return true
		}
	}
	return false
}
