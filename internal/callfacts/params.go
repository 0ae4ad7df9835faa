package callfacts

import "strings"

// bindParams puts the arguments given after a -c payload's $0 in place of
// its positional parameters ($1, ${2}, "$@", $*), so `sh -c 'rm -rf "$1"'
// _ ~/Archive` reads as the rm of ~/Archive it is. An argument with
// spaces, quotes or backslashes is left as the parameter (its target then
// stays unknown, which is judged as such): pasting it in would change the
// payload's words.
func bindParams(payload string, params []string) string {
	if len(params) == 0 || !strings.Contains(payload, "$") {
		return payload
	}
	for _, p := range params {
		if p == "" || strings.ContainsAny(p, " \t\n'\"\\`;&|<>()") {
			return payload
		}
	}
	home := make([]string, len(params))
	for i, p := range params {
		home[i] = p
		if p == "~" || strings.HasPrefix(p, "~/") {
			home[i] = "$HOME" + p[1:] // the outer shell expanded it; "$1" would not
		}
	}
	params = home
	var b strings.Builder
	for i := 0; i < len(payload); i++ {
		if payload[i] != '$' || i+1 == len(payload) {
			b.WriteByte(payload[i])
			continue
		}
		rest := payload[i+1:]
		n, width := -1, 0
		switch {
		case rest[0] == '@' && i > 0 && payload[i-1] == '"' && len(rest) > 1 && rest[1] == '"':
			b.WriteString(strings.Join(params, `" "`)) // "$@": a word each
			i++
			continue
		case rest[0] == '@' || rest[0] == '*':
			b.WriteString(strings.Join(params, " "))
			i++
			continue
		case rest[0] >= '1' && rest[0] <= '9' && (len(rest) == 1 || rest[1] < '0' || rest[1] > '9'):
			n, width = int(rest[0]-'0'), 1
		case len(rest) >= 3 && rest[0] == '{' && rest[1] >= '1' && rest[1] <= '9' && rest[2] == '}':
			n, width = int(rest[1]-'0'), 3
		}
		if n < 0 {
			b.WriteByte('$')
			continue
		}
		if n <= len(params) {
			b.WriteString(params[n-1])
		}
		i += width
	}
	return b.String()
}
