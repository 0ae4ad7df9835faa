package gates

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// userOnly are warden commands only the user may run: a model that could
// run them would switch its own guards off.
var userOnly = map[string]bool{
	"off": true, "on": true, "safemode": true, "breaker": true, "uninstall": true, "tempo": true,
	"disable": true, // no such command: a model guessing at off
}

// SelfToggle reports whether a shell command runs a user-only warden
// command (`warden breaker reset`, `warden safemode off`, `warden off`…),
// wherever it hides in the command line (pipelines, subshells, bash -c).
func SelfToggle(cmd string) (string, bool) {
	if !mayNameWarden(cmd) {
		return "", false // most commands: no parse at all
	}
	return selfToggle(cmd, 0)
}

// mayNameWarden is a cheap test that selfToggle can only pass: every name
// it finds is the command's own characters with quotes, backslashes,
// dollars (an empty ANSI-C quote inside a word) and line breaks taken
// out, so a command that has no "warden" or "pace-maker" even then has
// none for the parser to find.
func mayNameWarden(cmd string) bool {
	folded := strings.Map(func(r rune) rune {
		switch r {
		case '\'', '"', '\\', '$', '\n':
			return -1
		}
		return r
	}, strings.ToLower(cmd))
	return strings.Contains(folded, "warden") || strings.Contains(folded, "pace-maker")
}

func selfToggle(cmd string, depth int) (string, bool) {
	if depth > maxDepth {
		return "", false
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(cmd), "")
	if err != nil {
		// Unparseable: fall back to text, conservatively.
		low := strings.ToLower(cmd)
		for sub := range userOnly {
			if strings.Contains(low, "warden "+sub) || strings.Contains(low, "pace-maker "+sub) {
				return "warden " + sub, true
			}
		}
		return "", false
	}
	var found string
	vars := map[string]string{} // W=$(which warden): what $W runs
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || found != "" {
			return found == ""
		}
		for _, a := range c.Assigns {
			if a.Name != nil {
				vars[a.Name.Value] = wordText(a.Value)
			}
		}
		args := make([]string, 0, len(c.Args))
		for _, a := range c.Args {
			args = append(args, wordText(a))
		}
		for len(args) > 0 && wrappers[path.Base(args[0])] {
			args = skipWrapperArgs(path.Base(args[0]), args[1:])
		}
		if len(args) == 0 {
			return true
		}
		name := path.Base(args[0])
		if v, ok := vars[strings.Trim(strings.TrimPrefix(args[0], "$"), "{}")]; ok && strings.HasPrefix(args[0], "$") {
			name = path.Base(v)
		}
		if n := substitutedName(name); n != "" {
			name = n
		}
		switch {
		case name == "warden" || name == "pace-maker":
			if sub := firstOperand(args[1:]); userOnly[sub] {
				found = name + " " + sub
			} else if sub == "loop" && loopStop(args[1:]) {
				// Claude may start a loop, never end one it is held in.
				found = name + " loop stop"
			}
		case shells[name]:
			for i, a := range args[1:] {
				if a == "-c" && i+2 < len(args) {
					if s, ok := selfToggle(args[i+2], depth+1); ok {
						found = s
					}
				}
			}
		case name == "eval":
			if s, ok := selfToggle(strings.Join(args[1:], " "), depth+1); ok {
				found = s
			}
		}
		return found == ""
	})
	return found, found != ""
}

// loopStop reports whether `warden loop …` arguments stop the loop.
func loopStop(args []string) bool {
	for i, a := range args {
		if a == "loop" {
			return firstOperand(args[i+1:]) == "stop"
		}
	}
	return false
}

// substitutedName is the program a command substitution in command
// position resolves to when its text names warden: $(which warden),
// "$(command -v warden)", `type -P pace-maker`, $(readlink -f $(which
// warden)) all run warden. "" for anything else.
func substitutedName(word string) string {
	if !strings.Contains(word, "$(") && !strings.Contains(word, "`") {
		return ""
	}
	// Quotes, backslashes and dollars go first, as in mayNameWarden:
	// $(which w''arden) names warden too.
	folded := strings.Map(func(r rune) rune {
		switch r {
		case '\'', '"', '\\', '$':
			return -1
		}
		return r
	}, word)
	for _, tok := range strings.FieldsFunc(folded, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '(' || r == ')' || r == '`' || r == ';' || r == '|' || r == '&' || r == '<' || r == '>'
	}) {
		if b := path.Base(tok); b == "warden" || b == "pace-maker" {
			return b
		}
	}
	return ""
}
