package callfacts

import "strings"

// jqTemplate: jq -r 'FILTER | "llc -march=\(.arch) in.ll"' FILE prints the
// string once per input value. The string's text is on the line; only the
// interpolations \(…) come from the data, and stand as $INPUT. Only the
// form whose last stage is string literals and paths joined by + is read
// ("cargo test -p " + .name: a path's value stands as $INPUT too), and
// only with raw output (-r, --raw-output, -j): without it jq prints JSON
// strings in quotes, which no shell runs as the command. Other filters
// (@sh, $variables, calls, several outputs) stay unknown.
func jqTemplate(args []string) (text, bool) {
	raw, filter := false, ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--raw-output" || a == "--join-output":
			raw = true
		case a == "--arg" || a == "--argjson" || a == "--slurpfile" || a == "--rawfile":
			i += 2
		case a == "-f" || a == "--from-file" || a == "--args" || a == "--jsonargs":
			return text{}, false // the filter is elsewhere, or values follow
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") && len(a) > 1:
			raw = raw || strings.ContainsAny(a[1:], "rj")
		case filter == "":
			filter = a
		}
	}
	if !raw || filter == "" {
		return text{}, false
	}
	// the last stage: string literals and paths joined by + (the
	// addition form, "cargo test -p " + .name, prints the same line as
	// "cargo test -p \(.name)")
	var b strings.Builder
	for _, term := range jqTerms(jqLastStage(filter)) {
		if term != "" && term[0] == '.' {
			if !jqPath(term) {
				return text{}, false // a call, an operator: not this form
			}
			b.WriteString("$INPUT")
			continue
		}
		lit, ok := jqString(term)
		if !ok {
			return text{}, false
		}
		b.WriteString(lit)
	}
	if b.Len() == 0 {
		return text{}, false
	}
	return text{s: b.String() + "\n", known: true}, true
}

// jqLastStage is the filter's text after its last | outside strings and
// brackets.
func jqLastStage(filter string) string {
	last, depth := 0, 0
	for i := 0; i < len(filter); i++ {
		switch filter[i] {
		case '"':
			j, ok := jqStringEnd(filter, i)
			if !ok {
				return ""
			}
			i = j
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '|':
			if depth == 0 {
				last = i + 1
			}
		}
	}
	return strings.TrimSpace(filter[last:])
}

// jqTerms splits a stage at its + outside strings and brackets; nil when
// a term is empty.
func jqTerms(stage string) []string {
	var out []string
	from, depth := 0, 0
	for i := 0; i <= len(stage); i++ {
		if i < len(stage) {
			switch stage[i] {
			case '"':
				j, ok := jqStringEnd(stage, i)
				if !ok {
					return nil
				}
				i = j
				continue
			case '(', '[', '{':
				depth++
				continue
			case ')', ']', '}':
				depth--
				continue
			case '+':
				if depth != 0 {
					continue
				}
			default:
				continue
			}
		}
		t := strings.TrimSpace(stage[from:i])
		if t == "" {
			return nil
		}
		out = append(out, t)
		from = i + 1
	}
	return out
}

// jqStringEnd is the index of the quote closing the string literal that
// opens at s[i], skipping \( … ) interpolations.
func jqStringEnd(s string, i int) (int, bool) {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			if j+1 < len(s) && s[j+1] == '(' {
				depth := 1
				for j += 2; j < len(s) && depth > 0; j++ {
					switch s[j] {
					case '(':
						depth++
					case ')':
						depth--
					}
				}
				j--
				continue
			}
			j++
		case '"':
			return j, true
		}
	}
	return 0, false
}

// jqPath: ., .name, .a.b, .items[0], .name[]: a value of the input.
func jqPath(t string) bool {
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '[' || c == ']') {
			return false
		}
	}
	return true
}

// jqString is the text a jq string literal prints, each \( … ) standing
// as $INPUT; false for anything else.
func jqString(lit string) (string, bool) {
	if len(lit) < 2 || lit[0] != '"' {
		return "", false
	}
	if j, ok := jqStringEnd(lit, 0); !ok || j != len(lit)-1 {
		return "", false
	}
	var b strings.Builder
	s := lit[1 : len(lit)-1]
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case '(':
			depth := 1
			for i++; i < len(s) && depth > 0; i++ {
				switch s[i] {
				case '(':
					depth++
				case ')':
					depth--
				}
			}
			i--
			if depth != 0 {
				return "", false
			}
			b.WriteString("$INPUT")
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), true
}
