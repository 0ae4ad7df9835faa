package config

import (
	"cmp"
	"slices"
	"strconv"
)

// Problem is one thing wrong in a config file. Load works around it; `warden
// config check` prints it.
type Problem struct {
	File string `json:"file"`
	// Line is 1-based; 0 when the problem is about the whole file.
	Line int `json:"line,omitempty"`
	// Key is the dotted key concerned; empty for a syntax or read error.
	Key string `json:"key,omitempty"`
	// Message names the key, what is wrong and the fix.
	Message string `json:"message"`
}

// String is "file:line: message" (or "file: message" without a line), the
// form editors and terminals turn into links.
func (p Problem) String() string {
	if p.Line > 0 {
		return p.File + ":" + strconv.Itoa(p.Line) + ": " + p.Message
	}
	return p.File + ": " + p.Message
}

// sortProblems orders one file's problems by line, then key, so output does
// not depend on map iteration order.
func sortProblems(ps []Problem) {
	slices.SortStableFunc(ps, func(a, b Problem) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Key, b.Key))
	})
}
