package callfacts

import (
	"strings"

	"github.com/warden-dev/warden/internal/shellesc"
)

// templateOutput is what a command that prints a command template prints
// (seq -f FMT, find -printf FMT, sed 's|RE|REPL|', awk '{print "…" $1}'):
// the template, its placeholders standing for the names its input or its
// walk gives ("{}" for a matched name, the listed glob where the whole
// line stands, $INPUT where the input is unknown). A shell fed it then
// runs text the line shows: opentrons_simulate x_01.py, unzip -o data/{}
// or rm -rf data/* are judged as those commands are. ok is false for
// other commands and for forms this does not read (several sed
// expressions, awk programs that do more than print).
func (n *normalizer) templateOutput(name string, args []string, stdin text) (text, bool) {
	if t, ok := codePrintTemplate(name, args); ok {
		return t, true // python3 -c print(f"wc -c {p}"), node -e console.log(`npm run ${p}`): gencode.go
	}
	if strings.HasSuffix(name, "awk") {
		if t, ok := awkBeginTemplate(args); ok {
			return t, true // awk BEGIN{for(…) print "echo " i}: gencode.go
		}
	}
	switch name {
	case "seq", "find":
		t, ok := seqTemplate(args)
		if name == "find" {
			t, ok = findTemplate(args)
		}
		if ok && t.known && !commandTemplate(t.s) {
			return text{}, false // numbers or names printed as data: read as before
		}
		return t, ok
	case "jq", "gojq", "jaq":
		if stdin.from != "" {
			return text{}, false // fetched or decoded values: still from elsewhere
		}
		t, ok := jqTemplate(args)
		if !ok || !commandTemplate(t.s) {
			return text{}, false // values printed as data: read as before
		}
		return t, true
	case "git":
		t, ok := gitFormatTemplate(args)
		if !ok || !commandTemplate(t.s) {
			return text{}, false // names and hashes printed as data: read as before
		}
		return t, true
	case "go":
		t, ok := goListTemplate(args)
		if !ok || !commandTemplate(strings.TrimLeft(t.s, "\n")) {
			return text{}, false // package names printed as data: read as before
		}
		return t, true
	case "sed", "gsed", "awk", "gawk", "mawk", "nawk":
		if stdin.from != "" {
			return text{}, false // fetched or decoded text: still from elsewhere
		}
		t, ok := sedTemplate(args, stdin)
		if name[len(name)-3:] == "awk" {
			t, ok = awkTemplate(args, stdin)
		}
		if !ok || !commandTemplate(t.s) {
			return text{}, false // a filter of data (awk '{print $2}' | xargs kill): its output stays unknown
		}
		return t, true
	}
	return text{}, false
}

// commandTemplate: s, a filter's output, reads as commands with arguments
// the template wrote: a first word of letters followed by a space.
func commandTemplate(s string) bool {
	first, rest, ok := strings.Cut(strings.TrimLeft(s, " \t"), " ")
	if !ok || first == "" || strings.TrimSpace(rest) == "" {
		return false
	}
	for _, r := range first {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// inputLines are the lines a filter's input gives, or one $INPUT when the
// line does not show it.
func inputLines(stdin text) []string {
	if !stdin.known || strings.TrimSpace(stdin.s) == "" {
		return []string{"$INPUT"}
	}
	ls := strings.Split(strings.TrimRight(stdin.s, "\n"), "\n")
	if len(ls) > 16 {
		ls = ls[:16]
	}
	return ls
}

// seqTemplate: seq -f FMT [FIRST [INCR]] LAST prints FMT once per number.
func seqTemplate(args []string) (text, bool) {
	format := ""
	var nums []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "-f" || a == "--format") && i+1 < len(args):
			format = args[i+1]
			i++
		case strings.HasPrefix(a, "--format="):
			format = a[len("--format="):]
		case strings.HasPrefix(a, "-f") && len(a) > 2:
			format = a[2:]
		case a == "-w" || a == "--equal-width":
		case (a == "-s" || a == "--separator") && i+1 < len(args):
			i++
		default:
			nums = append(nums, a)
		}
	}
	if format == "" {
		return text{}, false
	}
	out := seqOutput(nums)
	if !out.known {
		return text{}, true
	}
	var b strings.Builder
	for _, v := range strings.Fields(out.s) {
		b.WriteString(fillPercent(format, func(byte) string { return v }) + "\n")
	}
	return text{s: b.String(), known: true}, true
}

// fillPercent replaces each %-directive of a printf-like format (flags,
// width, a conversion letter) by what fill gives for its letter; %% is %.
func fillPercent(format string, fill func(byte) string) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		if format[i+1] == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0123456789.'", format[j]) >= 0 {
			j++
		}
		if j >= len(format) {
			b.WriteString(format[i:])
			break
		}
		b.WriteString(fill(format[j]))
		i = j
	}
	return b.String()
}

// unescapeTemplate turns the backslash escapes of find -printf and awk
// strings (\n, \t, \\, \", octal) into their characters, as the shell's
// $'…' does; a NUL (find -printf '%p\0') separates lines as \n does.
func unescapeTemplate(s string) string {
	return strings.ReplaceAll(shellesc.ANSIC(s), "\x00", "\n")
}

// findTemplate: find START… TESTS -printf FMT prints FMT once per match:
// %p the match under its starting point, %f %P the name, %h the folder.
func findTemplate(args []string) (text, bool) {
	format := ""
	var starts []string
	inStarts := true
	for i, a := range args {
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
			inStarts = false
		}
		if inStarts {
			starts = append(starts, strings.TrimSuffix(a, "/"))
		}
		if a == "-printf" && i+1 < len(args) {
			if format != "" {
				return text{}, false
			}
			format = args[i+1]
		}
		if a == "-fprintf" || a == "-exec" || a == "-execdir" || a == "-ok" || a == "-okdir" || a == "-delete" {
			return text{}, false
		}
	}
	if format == "" {
		return text{}, false
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	under := "/{}"
	if !FindFilters(args) {
		under = "/*"
	}
	var b strings.Builder
	for _, st := range starts {
		b.WriteString(fillPercent(unescapeTemplate(format), func(c byte) string {
			switch c {
			case 'p':
				return st + under
			case 'h':
				return st
			default:
				return under[1:]
			}
		}))
	}
	return text{s: b.String(), known: true}, true
}

// sedTemplate: sed with s commands only (one, or several joined by ; or
// given as several -e: sed 's|^|mvn -q -f |; s|$|/pom.xml verify|'), no
// file operand: each input line with each match replaced in turn — the
// replacement, & the line, \N a part of it ("{}"); a match of ^ or $
// alone adds the replacement before or after. The commands a shell is
// then fed are the template the line shows.
func sedTemplate(args []string, stdin text) (text, bool) {
	var scripts []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-e" || a == "--expression":
			if i+1 >= len(args) {
				return text{}, false
			}
			scripts = append(scripts, args[i+1])
			i++
		case a == "-n" || a == "-E" || a == "-r" || a == "--regexp-extended" || a == "--quiet" || a == "-u":
		case strings.HasPrefix(a, "-"):
			return text{}, false // -i, -f FILE, -s: not a filter of its input
		case len(scripts) == 0:
			scripts = append(scripts, a)
		default:
			return text{}, false // a file operand: text the line does not show
		}
	}
	var subs [][2]string // each s command's pattern and replacement
	for _, sc := range scripts {
		cmds, ok := sedSubs(sc)
		if !ok {
			return text{}, false
		}
		subs = append(subs, cmds...)
	}
	if len(subs) == 0 || len(subs) > 8 {
		return text{}, false
	}
	var b strings.Builder
	for _, line := range inputLines(stdin) {
		part := "{}"
		if line == "$INPUT" {
			part = line
		}
		cur := line
		for _, sb := range subs {
			re, repl := sb[0], sb[1]
			var r strings.Builder
			for i := 0; i < len(repl); i++ {
				switch {
				case repl[i] == '&':
					r.WriteString(cur)
				case repl[i] == '\\' && i+1 < len(repl):
					i++
					switch c := repl[i]; {
					case c >= '1' && c <= '9':
						r.WriteString(part)
					case c == 'n':
						r.WriteByte('\n')
					default:
						r.WriteByte(c)
					}
				default:
					r.WriteByte(repl[i])
				}
			}
			switch re {
			case "^":
				cur = r.String() + cur
			case "$":
				cur = cur + r.String()
			default:
				cur = r.String()
			}
		}
		b.WriteString(cur + "\n")
	}
	return text{s: b.String(), known: true}, true
}

// sedSubs reads a sed script made only of s commands (s|RE|REPL|FLAGS),
// separated by ; or newlines; ok is false for any other command.
func sedSubs(script string) ([][2]string, bool) {
	var out [][2]string
	s := script
	for {
		s = strings.TrimLeft(s, " \t\n;")
		if s == "" {
			return out, len(out) > 0
		}
		if len(s) < 4 || s[0] != 's' {
			return nil, false
		}
		d := s[1]
		if d == '\\' || d == '\n' || d == ' ' || d == ';' {
			return nil, false
		}
		var parts []string
		start, i := 2, 2
		for ; i < len(s) && len(parts) < 2; i++ {
			if s[i] == '\\' {
				i++
				continue
			}
			if s[i] == d {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
		if len(parts) != 2 {
			return nil, false
		}
		j := i
		for j < len(s) && s[j] != ';' && s[j] != '\n' {
			j++
		}
		if strings.Trim(strings.TrimSpace(s[i:j]), "gpI0123456789") != "" {
			return nil, false
		}
		out = append(out, [2]string{parts[0], parts[1]})
		s = s[j:]
	}
}

// awkTemplate: awk '[PATTERN] { print "…" $1 … }' prints its strings and
// fields once per input line; a field stands for the line's name. Other
// programs (system(), getline, several statements, a file operand) are not
// read.
func awkTemplate(args []string, stdin text) (text, bool) {
	prog := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "-F" || a == "-v") && i+1 < len(args):
			i++
		case strings.HasPrefix(a, "-F") || strings.HasPrefix(a, "-v"):
		case strings.HasPrefix(a, "-"):
			return text{}, false
		case prog == "":
			prog = a
		default:
			// a file operand: its lines are the input, which the line does
			// not show; fields stand as $INPUT as for an unknown pipe
			stdin = text{}
		}
	}
	open := strings.IndexByte(prog, '{')
	if open < 0 || !strings.HasSuffix(strings.TrimSpace(prog), "}") || strings.ContainsAny(prog[:open], "\"'") {
		return text{}, false
	}
	body := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(prog[open+1:]), "}"))
	body = strings.TrimSpace(strings.TrimSuffix(body, ";"))
	printf := strings.HasPrefix(body, "printf")
	if !printf && !strings.HasPrefix(body, "print") {
		return text{}, false
	}
	if printf {
		body = body[len("printf"):]
	} else {
		body = body[len("print"):]
	}
	body = strings.TrimSpace(body)
	if strings.HasPrefix(body, "(") && strings.HasSuffix(body, ")") {
		body = body[1 : len(body)-1]
	}
	// the expression: strings, fields and commas only
	type item struct {
		lit   string
		field bool
		comma bool
	}
	var items []item
	for i := 0; i < len(body); {
		switch c := body[i]; {
		case c == ' ' || c == '\t':
			i++
		case c == '"':
			j := i + 1
			for j < len(body) && body[j] != '"' {
				if body[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(body) {
				return text{}, false
			}
			items = append(items, item{lit: unescapeTemplate(body[i+1 : j])})
			i = j + 1
		case c == '$':
			j := i + 1
			for j < len(body) && (body[j] >= '0' && body[j] <= '9' || body[j] >= 'A' && body[j] <= 'Z') {
				j++
			}
			if j == i+1 {
				return text{}, false
			}
			items = append(items, item{field: true})
			i = j
		case c == ',':
			items = append(items, item{comma: true})
			i++
		default:
			return text{}, false // a variable, a call, another statement
		}
	}
	var b strings.Builder
	for _, line := range inputLines(stdin) {
		if printf {
			if len(items) == 0 || items[0].lit == "" && items[0].field {
				return text{}, false
			}
			k := 1
			b.WriteString(fillPercent(items[0].lit, func(byte) string {
				for k < len(items) && items[k].comma {
					k++
				}
				k++
				return line
			}))
			continue
		}
		for _, it := range items {
			switch {
			case it.comma:
				b.WriteByte(' ')
			case it.field:
				b.WriteString(line)
			default:
				b.WriteString(it.lit)
			}
		}
		b.WriteByte('\n')
	}
	return text{s: b.String(), known: true}, true
}
