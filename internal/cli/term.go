package cli

import (
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"
)

// terminalWidth is the width tables must fit: the terminal's, else
// $COLUMNS, else unlimited (0) when output goes to a pipe or file.
func terminalWidth() int {
	if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil && w > 0 {
		return w
	}
	if c, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && c > 0 {
		return c
	}
	return 0
}

// clipLine cuts an already laid-out line to width runes.
func clipLine(s string, width int) string {
	if width <= 0 || utf8.RuneCountInString(s) <= width {
		return s
	}
	r := []rune(s)
	return string(r[:width-1]) + "…"
}

// writeClipped writes laid-out table text with every line cut to the
// terminal width, so rows never wrap.
func writeClipped(w io.Writer, text string) {
	width := terminalWidth()
	for _, line := range strings.SplitAfter(text, "\n") {
		if line == "" {
			continue
		}
		io.WriteString(w, clipLine(strings.TrimRight(line, "\n"), width)+"\n")
	}
}
