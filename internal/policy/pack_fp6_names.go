package policy

import "strings"

// grepNamePattern is a pattern that, matched from a line's start, can
// only cover a KEY=value line's name: a run of name characters ([A-Z_]*,
// [A-Za-z0-9_]+, \w+) or of anything but = ([^=]*), then at most the =.
var grepNamePattern = re(`^\^(?:\[(?:[A-Za-z]-[A-Za-z]|[0-9]-[0-9]|_|\\w)+\]|\\w|\[\^=[^\]]*\])[*+]=?$`)

// grepNamesOnly: grep -o with such a pattern prints the names of a
// KEY=value file (grep -o '^[A-Z_]*=' .env), never a value.
func grepNamesOnly(c *Cmd) bool {
	if !c.Has("-o", "--only-matching") || c.Has("-A", "-B", "-C", "--context", "-e", "-f", "--file") || len(c.Pos) == 0 {
		return false
	}
	return grepNamePattern.MatchString(strings.TrimSpace(c.Pos[0]))
}
