package callfacts

import "strings"

// goListTemplate: go list -f 'TEMPLATE' PACKAGES… prints the Go template
// once per package. The template's text is on the line; only the field
// values ({{.ImportPath}}, {{.Dir}}, {{.}} inside a range) come from the
// packages, and stand as $INPUT. Conditions and loops ({{if .X}},
// {{range .Y}}, {{with}}, {{else}}, {{end}}) only choose which of the
// shown text is printed, so they are dropped. An action that calls a
// function ({{join .Deps " "}}, {{printf …}}) or any other form is not
// read: its output stays unknown.
func goListTemplate(args []string) (text, bool) {
	if len(args) == 0 || args[0] != "list" {
		return text{}, false
	}
	format := ""
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-f" && i+1 < len(args):
			format = args[i+1]
			i++
		case strings.HasPrefix(a, "-f="):
			format = a[len("-f="):]
		case a == "-json" || strings.HasPrefix(a, "-json="):
			return text{}, false
		}
	}
	if format == "" {
		return text{}, false
	}
	var b strings.Builder
	for rest := format; ; {
		open := strings.Index(rest, "{{")
		if open < 0 {
			b.WriteString(rest)
			break
		}
		b.WriteString(rest[:open])
		end := strings.Index(rest[open:], "}}")
		if end < 0 {
			return text{}, false
		}
		action := strings.TrimSpace(strings.Trim(strings.TrimSpace(rest[open+2:open+end]), "-"))
		rest = rest[open+end+2:]
		word, _, _ := strings.Cut(action, " ")
		switch {
		case word == "if" || word == "range" || word == "with" || word == "else" || word == "end":
			// control only: the text it chooses is on the line
		case goTemplateField(action):
			b.WriteString("$INPUT")
		default:
			return text{}, false
		}
	}
	return text{s: unescapeTemplate(b.String()) + "\n", known: true}, true
}

// goTemplateField: {{.}} or a field path {{.Module.Path}}.
func goTemplateField(a string) bool {
	if a == "." {
		return true
	}
	if !strings.HasPrefix(a, ".") {
		return false
	}
	for _, r := range a[1:] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}
