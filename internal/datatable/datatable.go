// Package datatable reads warden's data tables (tools.txt, verbs.txt,
// zones.txt …): one entry a line, its fields split on white space, blank
// lines and lines starting with # skipped. Every table is read through it,
// so a malformed line is reported the same way everywhere: by table and
// line number.
package datatable

import (
	"fmt"
	"strings"
)

// Line is one entry of a table.
type Line struct {
	Table  string // the table's file name, "tools.txt"
	N      int    // its line number, from 1
	Text   string // the line, trimmed
	Fields []string
}

// Errorf is an error about the line: "tools.txt:12: …".
func (l Line) Errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: "+format, append([]any{l.Table, l.N}, args...)...)
}

// Lines are the entries of table name, whose text is text.
func Lines(name, text string) []Line {
	var out []Line
	for i, raw := range strings.Split(text, "\n") {
		f := strings.Fields(raw)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		out = append(out, Line{Table: name, N: i + 1, Text: strings.TrimSpace(raw), Fields: f})
	}
	return out
}

// Read calls fn for every entry of the table with at least min fields; a
// shorter entry, or fn's error, stops the reading with an error naming
// the line.
func Read(name, text string, min int, fn func(l Line) error) error {
	for _, l := range Lines(name, text) {
		if len(l.Fields) < min {
			return l.Errorf("%d fields, want at least %d: %q", len(l.Fields), min, l.Text)
		}
		if err := fn(l); err != nil {
			return err
		}
	}
	return nil
}

// Must is Read for a table embedded in the binary: a malformed table is a
// build error the packages' tests catch (each loads every table), so it
// panics with the line.
func Must(name, text string, min int, fn func(l Line) error) {
	if err := Read(name, text, min, fn); err != nil {
		panic(err)
	}
}

// Words is the set of every field of every entry (a list of names spread
// over lines).
func Words(name, text string) map[string]bool {
	m := map[string]bool{}
	for _, l := range Lines(name, text) {
		for _, w := range l.Fields {
			m[w] = true
		}
	}
	return m
}
