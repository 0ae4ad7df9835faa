// Package lazyre holds regular expressions compiled on first use: the hook
// runs once per tool call, and compiling every pattern of every rule at
// start-up would cost more than the call it guards.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a pattern compiled the first time it is matched.
type Regexp struct {
	pat  string
	once sync.Once
	re   *regexp.Regexp
	pre  *prefilter // the literals a match needs (prefilter.go), nil for none
}

// New returns a Regexp for pat; a bad pattern panics on first use, as
// regexp.MustCompile would (patterns are constants in the source).
func New(pat string) *Regexp { return &Regexp{pat: pat} }

func (l *Regexp) get() *regexp.Regexp {
	l.once.Do(func() {
		l.re = regexp.MustCompile(l.pat)
		l.pre = newPrefilter(l.pat)
	})
	return l.re
}

// none reports whether s cannot hold a match: it has none of the literals
// every match contains.
func (l *Regexp) none(s string) bool {
	l.get()
	return l.pre != nil && !l.pre.mayMatch(s)
}

// MatchString reports whether s contains a match.
func (l *Regexp) MatchString(s string) bool { return !l.none(s) && l.re.MatchString(s) }

// FindString returns the leftmost match in s, "" for none.
func (l *Regexp) FindString(s string) string {
	if l.none(s) {
		return ""
	}
	return l.re.FindString(s)
}

// FindStringSubmatch returns the leftmost match and its groups, nil for
// none.
func (l *Regexp) FindStringSubmatch(s string) []string {
	if l.none(s) {
		return nil
	}
	return l.re.FindStringSubmatch(s)
}

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (l *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	if l.none(s) {
		return nil
	}
	return l.re.FindAllStringSubmatch(s, n)
}

// FindAllStringSubmatchIndex is regexp.Regexp.FindAllStringSubmatchIndex
// (where each call starts: the text after it is read by hand).
func (l *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	if l.none(s) {
		return nil
	}
	return l.re.FindAllStringSubmatchIndex(s, n)
}

// FindAllStringIndex is regexp.Regexp.FindAllStringIndex.
func (l *Regexp) FindAllStringIndex(s string, n int) [][]int {
	if l.none(s) {
		return nil
	}
	return l.re.FindAllStringIndex(s, n)
}

// ReplaceAllString replaces every match in src with repl ($1 expands).
func (l *Regexp) ReplaceAllString(src, repl string) string {
	if l.none(src) {
		return src
	}
	return l.re.ReplaceAllString(src, repl)
}

// ReplaceAllStringFunc is regexp's, compiling on first use.
func (l *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	if l.none(src) {
		return src
	}
	return l.re.ReplaceAllStringFunc(src, repl)
}
