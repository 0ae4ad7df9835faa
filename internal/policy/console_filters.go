package policy

import "strings"

// consoleFilterProgs search or cut the text piped to them: a word inside
// their pattern (grep -E "oops|killed process") is a word searched for,
// no console command. Their pipeline stage is left out before the console
// text is read for stopping or destroying words (pack_console_payload.go).
var consoleFilterProgs = map[string]bool{"grep": true, "egrep": true, "fgrep": true, "zgrep": true, "rg": true, "ag": true,
	"tail": true, "head": true, "sort": true, "uniq": true, "wc": true, "cut": true, "less": true, "more": true}

// consoleDropFilters splits text into its stages (|, ;, && and newlines
// outside quotes) and leaves out those a filter program opens; the
// others are kept, one a line. Text with no filter is returned as is.
func consoleDropFilters(text string) string {
	if !strings.Contains(text, "|") {
		return text
	}
	var stages []string
	var q byte
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			} else if c == '\\' && q == '"' {
				i++
			}
		case c == '\'' || c == '"':
			q = c
		case c == '|' || c == ';' || c == '\n' || c == '&':
			stages = append(stages, text[start:i])
			start = i + 1
		}
	}
	if q != 0 {
		return text // an open quote: read the text as before
	}
	stages = append(stages, text[start:])
	dropped := false
	kept := stages[:0]
	for _, st := range stages {
		f := strings.Fields(st)
		if len(f) > 0 && consoleFilterProgs[f[0]] {
			dropped = true
			continue
		}
		kept = append(kept, st)
	}
	if !dropped {
		return text
	}
	return strings.Join(kept, "\n")
}
