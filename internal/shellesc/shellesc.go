// Package shellesc decodes what the shell decodes before a command runs:
// the backslash escapes of $'…', echo -e and printf %b, and printf's
// format. The policy engine (internal/policy) and the self-toggle gate
// (internal/gates) both read commands written to hide their words this
// way ($'\x72\x6d' is rm), and must read them alike.
package shellesc

import (
	"strconv"
	"strings"
)

// ANSIC decodes the escapes of $'…', echo -e and printf: \xHH, \uHHHH,
// \UHHHHHHHH, octal \NNN (and \0NNN), \n \t \r \a \b \e \E \f \v \\ \'
// \"; any other escape stays as written, as bash keeps it.
func ANSIC(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		j := escapeEnd(s, i)
		switch d := s[i+1]; {
		case (d == 'x' || d == 'u' || d == 'U') && j > i+2:
			v, _ := strconv.ParseUint(s[i+2:j], 16, 32)
			if d == 'x' {
				b.WriteByte(byte(v))
			} else {
				b.WriteRune(rune(v))
			}
		case d >= '0' && d <= '7':
			v, _ := strconv.ParseUint(s[i+1:j], 8, 16)
			b.WriteByte(byte(v))
		default:
			if r, ok := simpleEscapes[d]; ok {
				b.WriteByte(r)
			} else {
				b.WriteString(s[i:j])
			}
		}
		i = j - 1
	}
	return b.String()
}

var simpleEscapes = map[byte]byte{'n': '\n', 't': '\t', 'r': '\r', '\\': '\\', '\'': '\'', '"': '"', 'e': 0x1b, 'E': 0x1b, 'a': 7, 'b': 8, 'f': 12, 'v': 11}

// escapeEnd is the index after the backslash escape starting at s[i]:
// \x takes up to 2 hex digits, \u 4, \U 8, an octal escape up to 4 digits
// (\0NNN).
func escapeEnd(s string, i int) int {
	j := i + 2
	if j > len(s) {
		return len(s)
	}
	digits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[i+1]]
	switch d := s[i+1]; {
	case digits > 0:
		for j < len(s) && j < i+2+digits && isHex(s[j]) {
			j++
		}
	case d >= '0' && d <= '7':
		for j < len(s) && j < i+5 && s[j] >= '0' && s[j] <= '7' {
			j++
		}
	}
	return j
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// Printf formats like the shell builtin for %s, %b, %c, %d, %q and %%
// (flags and widths read and ignored), reusing the format while arguments
// remain; escapes in the format are decoded as ANSIC decodes them.
func Printf(format string, args []string) string {
	var b strings.Builder
	for pass := 0; pass < 8; pass++ {
		used := 0
		for i := 0; i < len(format); i++ {
			c := format[i]
			if c == '\\' {
				j := escapeEnd(format, i)
				b.WriteString(ANSIC(format[i:j]))
				i = j - 1
				continue
			}
			if c != '%' || i+1 >= len(format) {
				b.WriteByte(c)
				continue
			}
			i++
			for i < len(format) && strings.IndexByte("-+ #0123456789.", format[i]) >= 0 {
				i++
			}
			if i >= len(format) {
				break
			}
			switch format[i] {
			case '%':
				b.WriteByte('%')
			case 's', 'b', 'c', 'd', 'q':
				if used < len(args) {
					a := args[used]
					if format[i] == 'b' {
						a = ANSIC(a)
					} else if format[i] == 'c' && a != "" {
						a = a[:1]
					}
					b.WriteString(a)
				}
				used++
			}
		}
		args = args[min(used, len(args)):]
		if used == 0 || len(args) == 0 {
			break
		}
	}
	return b.String()
}
