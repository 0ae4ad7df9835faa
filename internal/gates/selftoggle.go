package gates

import (
	"path"
	"strings"
	"sync"

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
// subcommands a joined name ($a$b off) would run (next to a $ expansion).
// A switch, not a map: no hashing per word on the hot path.
func buildWord(w string) byte {
	switch w {
	case "base64", "base32", "basenc", "xxd", "rev", "tr", "openssl", "uudecode", "gunzip", "zcat", "printf":
		return 'd'
	case "off", "on", "safemode", "breaker", "uninstall", "tempo", "disable", "loop":
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

// parsers are reused: a parser is a few KB to set up, more than a short
// command takes to parse.
var parsers = sync.Pool{New: func() any { return syntax.NewParser() }}

func selfToggle(cmd string, depth int) (string, bool) {
	if depth > maxDepth {
		return "", false
	}
	p := parsers.Get().(*syntax.Parser)
	f, err := p.Parse(strings.NewReader(cmd), "")
	parsers.Put(p) // the tree does not borrow from the parser
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
	vals := map[string]value{}  // a=war: what $a holds, when the line shows it
	syntax.Walk(f, func(n syntax.Node) bool {
		if found != "" {
			return false
		}
		switch x := n.(type) {
		case *syntax.BinaryCmd:
			// echo d2FyZGVuIG9mZg== | base64 -d | bash: what the pipe
			// prints is the shell's script
			if (x.Op == syntax.Pipe || x.Op == syntax.PipeAll) && readsScript(x.Y) {
				if v := stmtOutput(x.X, vals, depth); v.known {
					found, _ = selfToggle(v.s, depth+1)
				}
			}
			// echo off | xargs warden: the input becomes arguments
			if y, ok := x.Y.Cmd.(*syntax.CallExpr); ok && (x.Op == syntax.Pipe || x.Op == syntax.PipeAll) && len(y.Args) > 1 && path.Base(wordText(y.Args[0])) == "xargs" {
				if v := stmtOutput(x.X, vals, depth); v.known {
					args := make([]string, 0, len(y.Args))
					for _, a := range y.Args {
						args = append(args, wordText(a))
					}
					found, _ = selfToggle(strings.Join(quoteAll(args), " ")+" "+strings.Join(quoteAll(strings.Fields(v.s)), " "), depth+1)
				}
			}
		case *syntax.Stmt:
			// bash <<< "$(…)": the here-string is the script
			if readsScript(x) {
				for _, r := range x.Redirs {
					if r.Op == syntax.WordHdoc {
						if v := wordValue(r.Word, vals, depth); v.known {
							found, _ = selfToggle(v.s, depth+1)
						}
					}
				}
			}
		case *syntax.CallExpr:
			found = callToggle(x, vars, vals, depth)
		}
		return found == ""
	})
	return found, found != ""
}

// callToggle is the user-only warden command one simple command runs,
// "" for none.
func callToggle(c *syntax.CallExpr, vars map[string]string, vals map[string]value, depth int) string {
	for _, a := range c.Assigns {
		if a.Name != nil {
			vars[a.Name.Value] = wordText(a.Value)
			vals[a.Name.Value] = wordValue(a.Value, vals, depth)
		}
	}
	args := make([]string, 0, len(c.Args))
	hidden := make([]bool, 0, len(c.Args)) // built by a decoder at run time
	split := make([]bool, 0, len(c.Args))  // an expansion the line shows, split on spaces
	for _, a := range c.Args {
		v := wordValue(a, vals, depth)
		if v.known {
			args = append(args, v.s)
		} else {
			args = append(args, wordText(a))
		}
		hidden = append(hidden, !v.known && v.decoded)
		split = append(split, v.known && len(a.Parts) > 0 && !isLiteral(a))
	}
	for len(args) > 0 && wrappers[path.Base(args[0])] {
		args = skipWrapperArgs(path.Base(args[0]), args[1:])
		hidden = hidden[len(hidden)-len(args):]
		split = split[len(split)-len(args):]
	}
	if len(args) == 0 {
		return ""
	}
	if f := strings.Fields(args[0]); split[0] && len(f) > 1 {
		// $(echo d2FyZGVuIG9mZg== | base64 -d): the output splits into
		// the name and its arguments
		args = append(f, args[1:]...)
		hidden = append(make([]bool, len(f)-1), hidden...)
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
			return name + " " + sub
		} else if sub == "loop" && loopStop(args[1:]) {
			// Claude may start a loop, never end one it is held in.
			return name + " loop stop"
		}
	case hidden[0]:
		// $(base64 -d < name.b64) off: a name decoded at run time, hidden
		// on purpose, running a user-only subcommand is taken for warden.
		if sub := firstOperand(args[1:]); userOnly[sub] {
			return "warden " + sub
		}
	case shells[name]:
		for i, a := range args[1:] {
			if a == "-c" && i+2 < len(args) {
				if s, ok := selfToggle(args[i+2], depth+1); ok {
					return s
				}
			}
		}
	case name == "eval":
		if s, ok := selfToggle(strings.Join(args[1:], " "), depth+1); ok {
			return s
		}
	case name == "find":
		// find . -exec warden off \;
		for i, a := range args {
			if a == "-exec" || a == "-execdir" || a == "-ok" || a == "-okdir" {
				end := i + 1
				for end < len(args) && args[end] != ";" && args[end] != "+" {
					end++
				}
				if s, ok := selfToggle(strings.Join(quoteAll(args[i+1:end]), " "), depth+1); ok {
					return s
				}
			}
		}
	case name == "git":
		// git -c alias.w='!warden off' w: the alias is shell code
		for i, a := range args[1:] {
			if k, v, ok := strings.Cut(a, "="); ok && i > 0 && args[i] == "-c" && strings.HasPrefix(strings.ToLower(k), "alias.") && strings.HasPrefix(v, "!") {
				if s, ok := selfToggle(v[1:], depth+1); ok {
					return s
				}
			}
		}
	case interpreters[name]:
		return spawnsToggle(args[1:])
	}
	return ""
}

// interpreters run one-liners that may start programs.
var interpreters = map[string]bool{"python": true, "python3": true, "python2": true, "node": true, "nodejs": true, "bun": true, "deno": true,
	"perl": true, "ruby": true, "php": true}

// spawnsToggle reads an interpreter one-liner as text, the way an
// unparseable line is read: code that starts a program (system,
// subprocess, exec, spawn, popen, backticks) and names warden followed by
// a user-only subcommand — subprocess.run(['warden','off']), system("warden
// safemode off") — runs it.
func spawnsToggle(args []string) string {
	code := strings.ToLower(strings.Join(args, " "))
	if !strings.Contains(code, "system") && !strings.Contains(code, "subprocess") && !strings.Contains(code, "exec") &&
		!strings.Contains(code, "spawn") && !strings.Contains(code, "popen") && !strings.Contains(code, "`") {
		return ""
	}
	words := strings.FieldsFunc(code, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '/' || r == '.')
	})
	for i, w := range words {
		if b := path.Base(w); (b == "warden" || b == "pace-maker") && i+1 < len(words) && userOnly[words[i+1]] {
			return b + " " + words[i+1]
		}
	}
	return ""
}

// isLiteral reports whether a word is plain text and quotes, nothing
// the shell expands.
func isLiteral(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
		case *syntax.SglQuoted:
			if p.Dollar {
				return false
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// readsScript reports whether st runs a shell that reads its script from
// its input (bash, sh -s; not bash -c or bash file.sh).
func readsScript(st *syntax.Stmt) bool {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 || !shells[path.Base(wordText(c.Args[0]))] {
		return false
	}
	for _, a := range c.Args[1:] {
		if t := wordText(a); !strings.HasPrefix(t, "-") || t == "-c" {
			return false
		}
	}
	return true
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
