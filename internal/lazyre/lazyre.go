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
}

// New returns a Regexp for pat; a bad pattern panics on first use, as
// regexp.MustCompile would (patterns are constants in the source).
func New(pat string) *Regexp { return &Regexp{pat: pat} }

func (l *Regexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.pat) })
	return l.re
}

// MatchString reports whether s contains a match.
func (l *Regexp) MatchString(s string) bool { return l.get().MatchString(s) }

// FindString returns the leftmost match in s, "" for none.
func (l *Regexp) FindString(s string) string { return l.get().FindString(s) }

// FindStringSubmatch returns the leftmost match and its groups, nil for
// none.
func (l *Regexp) FindStringSubmatch(s string) []string { return l.get().FindStringSubmatch(s) }

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (l *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.get().FindAllStringSubmatch(s, n)
}

// ReplaceAllString replaces every match in src with repl ($1 expands).
func (l *Regexp) ReplaceAllString(src, repl string) string {
	return l.get().ReplaceAllString(src, repl)
}

// ReplaceAllStringFunc is regexp's, compiling on first use.
func (l *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return l.get().ReplaceAllStringFunc(src, repl)
}
