package gates

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// SelfToggle reports whether a shell command runs a user-only warden
// command (`warden breaker reset`, `warden safemode off`, `warden off`…),
// wherever it hides in the command line: the commands are those of the
// one reading the policy engine reads too (internal/callfacts), so a
// pipeline, a subshell, bash -c, a wrapper, xargs, find -exec, a git
// alias, an interpreter's system() or a name decoded from base64 hides
// nothing the policy would see.
func SelfToggle(cmd string) (string, bool) {
	if !mayNameWarden(cmd) {
		return "", false // most commands: no parse at all
	}
	return selfToggle(cmd)
}

// selfToggle is SelfToggle without the prefilter.
func selfToggle(cmd string) (string, bool) {
	f := callfacts.Bash(cmd, "", "")
	for i := range f.Commands {
		if what := f.Commands[i].WardenToggle(); what != "" {
			return what, true
		}
	}
	return "", false
}

// mayNameWarden is a cheap test that selfToggle can only pass: every name
// it finds is the command's own characters with quotes, backslashes,
// dollars (an empty ANSI-C quote inside a word) and line breaks taken
// out, so a command that has no "warden" or "pace-maker" even then has
// none for the parser to find — unless the line builds a name the text
// does not spell (mayBuildName).
func mayNameWarden(cmd string) bool {
	low := strings.ToLower(cmd)
	folded := strings.Map(func(r rune) rune {
		switch r {
		case '\'', '"', '\\', '$', '\n':
			return -1
		}
		return r
	}, low)
	return strings.Contains(folded, "warden") || strings.Contains(folded, "pace-maker") || mayBuildName(low)
}

// buildWord classes the words of a line that may build a command name the
// text does not spell: 'd' for decoders and printf, 'u' for the user-only
// subcommands a joined name ($a$b off) would run (next to a $ expansion) —
// callfacts' list of them, which TestSelfTogglePrefilterMissesNothing
// holds this one to. A switch, not a map: no hashing per word on the hot
// path.
func buildWord(w string) byte {
	switch w {
	case "base64", "base32", "basenc", "xxd", "rev", "tr", "openssl", "uudecode", "gunzip", "zcat", "printf":
		return 'd'
	case "off", "on", "safemode", "breaker", "uninstall", "tempo", "disable", "loop", "s-", "rb-":
		return 'u'
	}
	return 0
}

// mayBuildName reports whether a lowercased line has an escape sequence
// (\x77, \167), a decoder or printf as a word, or a $ expansion next to a
// user-only subcommand. One pass, no allocation.
func mayBuildName(low string) bool {
	dollar := strings.IndexByte(low, '$') >= 0
	start := -1
	for i := 0; i <= len(low); i++ {
		c := byte(' ')
		if i < len(low) {
			c = low[i]
		}
		if c == '\\' && i+1 < len(low) && (low[i+1] == 'x' || low[i+1] >= '0' && low[i+1] <= '7') {
			return true
		}
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			switch buildWord(low[start:i]) {
			case 'd':
				return true
			case 'u':
				if dollar {
					return true
				}
			}
			start = -1
		}
	}
	return false
}
