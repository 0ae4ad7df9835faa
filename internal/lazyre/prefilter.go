package lazyre

import (
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// A prefilter is the literals a pattern cannot match without: text that
// holds none of them is answered "no match" without running the regexp.
// Rules run patterns over every argument of every command; Go's regexp
// has no fast skip for an alternation or a case-insensitive pattern, and a
// keylogger's or a secret's seven alternatives cost microseconds on each
// line that names none of them. The answer is the regexp's own: the
// literals are read from the parsed pattern (every match contains one),
// and text the literals cannot decide (non-ASCII text for a
// case-insensitive literal) goes to the regexp.

// maxLiterals bounds a prefilter: more alternatives than this and the
// searches would cost what the regexp does.
const maxLiterals = 48

type prefilter struct {
	exact []string // matched as written
	fold  []string // lower-case ASCII, matched ignoring ASCII case
	pairs []Pairs  // each literal's byte pairs (pairs.go)
}

// lit is one required literal.
type lit struct {
	s    string
	fold bool
}

// newPrefilter reads pat's required literals; nil when it has none worth
// searching for (a pattern that can match without any literal).
func newPrefilter(pat string) *prefilter {
	re, err := syntax.Parse(pat, syntax.Perl)
	if err != nil {
		return nil // regexp.MustCompile reports it
	}
	lits, ok := required(re.Simplify())
	if !ok || len(lits) == 0 || len(lits) > maxLiterals {
		return nil
	}
	p := &prefilter{}
	seen := map[lit]bool{}
	for _, l := range lits {
		if seen[l] {
			continue
		}
		seen[l] = true
		p.pairs = append(p.pairs, pairsOfLit(l.s))
		if l.fold {
			p.fold = append(p.fold, l.s)
		} else {
			p.exact = append(p.exact, l.s)
		}
	}
	return p
}

// required is a set of literals one of which every match of re contains;
// ok false when there is no such set.
func required(re *syntax.Regexp) (lits []lit, ok bool) {
	switch re.Op {
	case syntax.OpLiteral:
		l, ok := literal(re)
		if !ok {
			return nil, false
		}
		return []lit{l}, true
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
		return nil, false
	case syntax.OpConcat:
		// any one part's set holds for the whole; take the one whose
		// shortest literal is longest (the most selective)
		var best []lit
		bestLen := 0
		for _, sub := range re.Sub {
			ls, ok := required(sub)
			if !ok {
				continue
			}
			if m := shortest(ls); best == nil || m > bestLen || m == bestLen && len(ls) < len(best) {
				best, bestLen = ls, m
			}
		}
		return best, best != nil
	case syntax.OpAlternate:
		var all []lit
		for _, sub := range re.Sub {
			ls, ok := required(sub)
			if !ok {
				return nil, false // one alternative needs no literal
			}
			all = append(all, ls...)
		}
		return all, len(all) > 0
	}
	// a class, any character, an anchor, an empty match, a star or a
	// question mark: no literal is required
	return nil, false
}

// literal is an OpLiteral as searched text: case-insensitive literals
// only when ASCII (their case is then ASCII's); a literal holding U+FFFD
// is not searched for (the regexp matches it on an invalid byte).
func literal(re *syntax.Regexp) (lit, bool) {
	if len(re.Rune) == 0 {
		return lit{}, false
	}
	fold := re.Flags&syntax.FoldCase != 0
	var b strings.Builder
	for _, r := range re.Rune {
		switch {
		case r == utf8.RuneError:
			return lit{}, false
		case fold && r >= utf8.RuneSelf:
			return lit{}, false
		case fold && 'A' <= r && r <= 'Z':
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return lit{s: b.String(), fold: fold}, true
}

func shortest(ls []lit) int {
	m := -1
	for _, l := range ls {
		if m < 0 || len(l.s) < m {
			m = len(l.s)
		}
	}
	return m
}

// mayMatch reports whether s holds one of the literals, or cannot be told
// without the regexp.
func (p *prefilter) mayMatch(s string) bool {
	for _, l := range p.exact {
		if strings.Contains(s, l) {
			return true
		}
	}
	if len(p.fold) == 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return true // Unicode case folding (K, ſ): the regexp decides
		}
	}
	for _, l := range p.fold {
		if containsFoldASCII(s, l) {
			return true
		}
	}
	return false
}

// containsFoldASCII reports whether ASCII s contains lower-case ASCII l,
// ignoring case.
func containsFoldASCII(s, l string) bool {
	n := len(l)
	c0 := l[0]
	for i := 0; i+n <= len(s); i++ {
		if lower(s[i]) != c0 {
			continue
		}
		j := 1
		for j < n && lower(s[i+j]) == l[j] {
			j++
		}
		if j == n {
			return true
		}
	}
	return false
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
