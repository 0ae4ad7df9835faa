// Package termtext renders untrusted text (prompts, results, reasons that
// came from webhooks, agents or the API) for a terminal. A terminal obeys
// what it is sent: an escape sequence can write the clipboard (OSC 52),
// clear the screen or retitle the window, a C1 byte is a control on its
// own, and a bidi override reorders what the reader sees. Every CLI output
// of stored text goes through Visible.
package termtext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Visible returns s with every byte or character a terminal would act on
// shown instead as an escape a reader can see: C0 controls (newline and
// tab too), DEL and C1 controls as \xHH or \u00HH, invalid UTF-8 bytes as
// \xHH (a stray 0x9b is CSI to some terminals), and format characters,
// the bidi overrides and isolates among them (U+202E, U+2066…), as
// \uHHHH. Printable text, backslashes included, is left as it is.
func Visible(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x80 && unsafeRune(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// VisibleLines is Visible for text shown as lines: each line is made
// visible, the newlines between them kept.
func VisibleLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Visible(l)
	}
	return strings.Join(lines, "\n")
}

func unsafeRune(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}

// isPlain: nothing to change (the common case, without allocating).
func isPlain(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || unsafeRune(r) {
			return false
		}
	}
	return true
}
