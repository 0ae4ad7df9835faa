package callfacts

import (
	"strings"

	"github.com/warden-dev/warden/internal/lazyre"
)

// A library's request is read as curl -X METHOD URL (interpeffects.go);
// what makes curl's line a change to a service others use is also in
// the call's arguments: a login (auth=(user, pw), headers carrying a
// bearer token, a token read from the environment) and a body (json=,
// data=). requests.patch(url, json={'is_paused': True}, auth=(…)) is
// curl -X PATCH -H 'Authorization: Bearer x' -d x URL, and the shell
// reading's api-mutating-call judges it as it judges curl's. A call with
// no body stays the bare curl -X METHOD URL it was.

// httpCallAuth: a credential handed to the request.
var httpCallAuth = lazyre.New(`(?i)\bauth\s*[=:]|authorization|bearer|\btoken\b|\w*(?:TOKEN|_PW|PASSWORD|SECRET|API_KEY)\w*|x-api-key|private-token`)

// httpCallBody: a body handed to the request.
var httpCallBody = lazyre.New(`\b(?:json|data|body|content|form)\s*[=:]`)

// httpCallOpts is curl's options for the arguments of the call whose
// URL literal ends at end in code.
func httpCallOpts(code string, end int) []string {
	open := strings.LastIndexByte(code[:end], '(')
	if open < 0 {
		return nil
	}
	args := code[end:matchParen(code, open+1)]
	if !httpCallBody.MatchString(args) {
		return nil // no body: the bare curl -X METHOD URL, as before (a key tried on its own service)
	}
	if httpCallAuth.MatchString(args) {
		return []string{"-H", "Authorization: Bearer x", "-d", "x"}
	}
	return []string{"-d", "x"}
}
