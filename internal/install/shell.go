package install

import (
	"errors"
	"regexp"
	"strings"
	"sync"
)

// Hook and status line commands are shell command lines (Claude Code runs
// them through sh/bash), so warden quotes what it writes and reads them back
// with a small POSIX word splitter: enough to find the program, its first
// arguments and a quoted --wrap argument. It stops at the first operator
// (; & | < > ( )) because only the first simple command matters here.

// safeWord matches words that need no quoting. The patterns here compile on
// first use: this package is linked into the hook binary, whose package
// init runs on every event.
var safeWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`) })

// ShellQuote quotes s for a POSIX shell only when it needs it.
func ShellQuote(s string) string {
	if s != "" && safeWord().MatchString(s) {
		return s
	}
	return singleQuote(s)
}

// singleQuote always quotes, in single quotes; a single quote inside
// becomes quote, backslash-quote, quote, quote (the POSIX idiom).
func singleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// word is one shell word of a command line.
type word struct {
	text       string // after quote removal (and expansion, when asked)
	start, end int    // byte span in the command line
	// dynamic: contains something only a shell can resolve ($(…), `…`,
	// ${VAR:-…}, globs are not counted), so checks must not guess.
	dynamic bool
	// unset lists variables the word used that had no value.
	unset []string
}

// raw is the word as written.
func (w word) raw(line string) string { return line[w.start:w.end] }

var errUnbalanced = errors.New("unbalanced quotes")

// lookupFunc resolves a variable; nil means "do not expand" (words keep
// $VAR and ~ literally, for reading back what warden wrote).
type lookupFunc func(name string) (string, bool)

// splitWords splits the first simple command of line into words.
func splitWords(line string, lookup lookupFunc) ([]word, error) {
	var words []word
	i, n := 0, len(line)
	for {
		for i < n && (line[i] == ' ' || line[i] == '\t' || line[i] == '\n') {
			i++
		}
		if i >= n || strings.IndexByte(";&|<>()", line[i]) >= 0 || line[i] == '#' {
			return words, nil
		}
		w, next, err := scanWord(line, i, lookup)
		if err != nil {
			return words, err
		}
		words = append(words, w)
		i = next
	}
}

// scanWord reads one word starting at i and returns it with the index after it.
func scanWord(line string, i int, lookup lookupFunc) (word, int, error) {
	w := word{start: i}
	var b strings.Builder
	n := len(line)
	if lookup != nil && line[i] == '~' && (i+1 == n || strings.IndexByte("/ \t\n;&|<>()", line[i+1]) >= 0) {
		home, _ := lookup("HOME")
		b.WriteString(home)
		i++
	}
	for i < n {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || strings.IndexByte(";&|<>()", c) >= 0:
			w.end, w.text = i, b.String()
			return w, i, nil
		case c == '\\':
			if i+1 < n && line[i+1] != '\n' {
				b.WriteByte(line[i+1])
			}
			i += 2
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return w, n, errUnbalanced
			}
			b.WriteString(line[i+1 : i+1+j])
			i += j + 2
		case c == '"':
			next, err := scanDouble(line, i+1, lookup, &b, &w)
			if err != nil {
				return w, n, err
			}
			i = next
		case c == '$' || c == '`':
			i = expand(line, i, lookup, &b, &w)
		default:
			b.WriteByte(c)
			i++
		}
	}
	w.end, w.text = n, b.String()
	return w, n, nil
}

// scanDouble reads the inside of "…" from i and returns the index after the
// closing quote.
func scanDouble(line string, i int, lookup lookupFunc, b *strings.Builder, w *word) (int, error) {
	n := len(line)
	for i < n {
		c := line[i]
		switch {
		case c == '"':
			return i + 1, nil
		case c == '\\' && i+1 < n && strings.IndexByte("$`\"\\\n", line[i+1]) >= 0:
			if line[i+1] != '\n' {
				b.WriteByte(line[i+1])
			}
			i += 2
		case c == '$' || c == '`':
			i = expand(line, i, lookup, b, w)
		default:
			b.WriteByte(c)
			i++
		}
	}
	return n, errUnbalanced
}

var (
	varName   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*`) })
	wholeName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })
)

// expand handles $NAME, ${NAME} and marks anything fancier as dynamic. It
// returns the index after what it consumed.
func expand(line string, i int, lookup lookupFunc, b *strings.Builder, w *word) int {
	rest := line[i:]
	var name string
	var size int
	switch {
	case rest[0] == '`' || strings.HasPrefix(rest, "$("):
		w.dynamic = true
		b.WriteByte(rest[0])
		return i + 1
	case strings.HasPrefix(rest, "${"):
		end := strings.IndexByte(rest, '}')
		if end < 0 || !wholeName().MatchString(rest[2:end]) {
			w.dynamic = true
			b.WriteByte('$')
			return i + 1
		}
		name, size = rest[2:end], end+1
	default:
		name = varName().FindString(rest[1:])
		if name == "" {
			b.WriteByte('$')
			return i + 1
		}
		size = 1 + len(name)
	}
	if lookup == nil {
		b.WriteString(rest[:size])
		return i + size
	}
	if v, ok := lookup(name); ok && v != "" {
		b.WriteString(v)
	} else {
		w.unset = append(w.unset, name)
	}
	return i + size
}

// assignment matches a leading NAME=value word.
var assignment = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`) })

// commandWords returns the words of line from the program on: leading
// NAME=value assignments are skipped (and returned as the prefix length, so
// a rewrite can keep them).
func commandWords(line string, lookup lookupFunc) (words []word, prefixEnd int, err error) {
	all, err := splitWords(line, lookup)
	for i, w := range all {
		if !assignment().MatchString(w.raw(line)) {
			return all[i:], w.start, err
		}
	}
	return nil, len(line), err
}
