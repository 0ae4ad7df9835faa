package policy

import (
	"strings"
	"unicode"
)

// Many APIs take the action in the body rather than the path: a semantic
// patch's {"kind": "turnFlagOff"}, a batch's {"action": "deleteRecords"},
// a JSON-RPC-like {"op": "archive"}. The action's words are judged like
// a path's (api-destroy in remoteops.txt); switching something off is
// judged so when the call names production too (a flag turned off in
// the production environment is a kill switch pulled on live traffic).

// bodyAction: the value of a body field that names the request's action.
var bodyAction = re(`"(?:kind|action|op|operation|command|instruction|verb)"\s*:\s*"([A-Za-z][A-Za-z_-]*)"`)

// apiBodyAction says which action of r's body removes or, on production,
// switches something off ("" when none does).
func apiBodyAction(r apiCall) string {
	if !strings.Contains(r.body, `"`) {
		return ""
	}
	destroy := opsList("api-destroy")
	prod := prodWord.MatchString(r.body + " " + strings.Join(r.urls, " "))
	for _, m := range bodyAction.FindAllStringSubmatch(r.body, -1) {
		for _, w := range actionWords(m[1]) {
			if destroy[w] || w == "off" && prod {
				return "the action " + m[1] + " in the body"
			}
		}
	}
	return ""
}

// actionWords splits an action's name at case changes, _ and -
// (turnFlagOff: turn flag off).
func actionWords(s string) []string {
	var out []string
	cur := []rune{}
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for _, r := range s {
		switch {
		case r == '_' || r == '-':
			flush()
		case unicode.IsUpper(r):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return out
}
