package callfacts

import "strings"

// jqTemplate: jq -r 'FILTER | "llc -march=\(.arch) in.ll"' FILE prints the
// string once per input value. The string's text is on the line; only the
// interpolations \(…) come from the data, and stand as $INPUT. Only the
// form whose last stage is one string literal is read, and only with raw
// output (-r, --raw-output, -j): without it jq prints JSON strings in
// quotes, which no shell runs as the command. Other filters (@sh, string
// additions, several outputs) stay unknown.
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
	last := strings.TrimSpace(filter)
	if i := strings.LastIndex(last, "| \""); i >= 0 {
		last = strings.TrimSpace(last[i+1:])
	}
	if len(last) < 2 || last[0] != '"' || last[len(last)-1] != '"' {
		return text{}, false
	}
	var b strings.Builder
	s := last[1 : len(last)-1]
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			return text{}, false // more than one string: not this form
		}
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
				return text{}, false
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
	return text{s: b.String() + "\n", known: true}, true
}
