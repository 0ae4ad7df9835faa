package config

import "strings"

// The TOML decoder does not expose where a key was written, so problems get
// their line from this small scanner. It understands what decides which key a
// line defines: table headers ([a.b] and [[a.b]]), `key =` lines with bare,
// quoted and dotted keys, comments, strings, and values that span lines
// (multi-line strings, arrays and inline tables), whose inner lines define
// nothing. It runs only when there is a problem to place.

// keyLines maps every key and table written in text, by dotted name, to the
// 1-based line where it first appears.
func keyLines(text string) map[string]int {
	lines := map[string]int{}
	record := func(name string, n int) {
		if _, seen := lines[name]; !seen {
			lines[name] = n
		}
	}
	table := ""
	depth, open := 0, "" // state of a value that continues on the next line
	for i, line := range strings.Split(text, "\n") {
		n := i + 1
		if depth > 0 || open != "" {
			depth, open = scanValue(line, depth, open)
			continue
		}
		t := strings.TrimSpace(line)
		switch {
		case t == "" || t[0] == '#':
		case t[0] == '[':
			name := strings.TrimPrefix(t[1:], "[")
			if end := indexOutside(name, ']'); end >= 0 {
				table = normalizeKey(name[:end])
				record(table, n)
			}
		default:
			eq := indexOutside(t, '=')
			if eq < 0 {
				continue
			}
			full := normalizeKey(t[:eq])
			if table != "" {
				full = table + "." + full
			}
			// A dotted key also defines its parent tables (a.b = 1 defines a).
			for j := len(table) + 1; j < len(full); j++ {
				if full[j] == '.' {
					record(full[:j], n)
				}
			}
			record(full, n)
			depth, open = scanValue(t[eq+1:], 0, "")
		}
	}
	return lines
}

// lineOf returns the line of key, or of its nearest written ancestor (a key
// inside an inline table), or 0.
func lineOf(lines map[string]int, key string) int {
	for {
		if n, ok := lines[key]; ok {
			return n
		}
		i := strings.LastIndexByte(key, '.')
		if i < 0 {
			return 0
		}
		key = key[:i]
	}
}

// scanValue follows a value through one line: depth counts open brackets and
// braces, open is the delimiter of an unterminated multi-line string. Both
// carry over to the next line.
func scanValue(s string, depth int, open string) (int, string) {
	for i := 0; i < len(s); {
		if open != "" {
			j := strings.Index(s[i:], open)
			if j < 0 {
				return depth, open
			}
			i += j + len(open)
			open = ""
			continue
		}
		switch c := s[i]; {
		case c == '#':
			return depth, ""
		case strings.HasPrefix(s[i:], `"""`) || strings.HasPrefix(s[i:], `'''`):
			open = s[i : i+3]
			i += 3
		case c == '"' || c == '\'':
			i = skipString(s, i)
		case c == '[' || c == '{':
			depth++
			i++
		case c == ']' || c == '}':
			depth--
			i++
		default:
			i++
		}
	}
	return depth, open
}

// skipString returns the index just past the one-line string that starts
// at s[i] (a quote), or len(s) if it is not closed.
func skipString(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch {
		case s[j] == '\\' && q == '"':
			j++ // skip the escaped character
		case s[j] == q:
			return j + 1
		}
	}
	return len(s)
}

// indexOutside returns the index of the first c in s that is not inside a
// quoted string, or -1.
func indexOutside(s string, c byte) int {
	for i := 0; i < len(s); {
		switch s[i] {
		case c:
			return i
		case '"', '\'':
			i = skipString(s, i)
		default:
			i++
		}
	}
	return -1
}

// normalizeKey turns a written key (`a . "b" .c`) into its dotted name (a.b.c).
func normalizeKey(s string) string {
	var parts []string
	for {
		dot := indexOutside(s, '.')
		part := s
		if dot >= 0 {
			part = s[:dot]
		}
		part = strings.TrimSpace(part)
		if len(part) >= 2 && (part[0] == '"' || part[0] == '\'') && part[len(part)-1] == part[0] {
			part = part[1 : len(part)-1]
		}
		parts = append(parts, part)
		if dot < 0 {
			return strings.Join(parts, ".")
		}
		s = s[dot+1:]
	}
}
