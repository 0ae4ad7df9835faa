package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/lazyre"
)

// Interpreter code builds an API's URL from a name it set earlier: URL =
// os.environ['GHOST_URL'] then requests.delete(f"{URL}/ghost/api/admin/
// posts/{p['id']}/"), BASE + '/v1/items', axios.put(`${API}/orders/1`).
// The code's HTTP reading (interpAPICalls) knew literal URLs and
// os.environ[…] written inside the call only, so a script that names its
// base URL once (as nearly every script does) sent DELETEs unread. The
// base is resolved from the code's own assignment — an environment
// variable becomes the curl line's "$VAR", a literal URL stays itself —
// and the call is then judged as curl's request to that URL is
// (api-call-in-code, api-change-in-code, code-posts-webhook). A base the
// code computes or reads elsewhere stays unread.

// interpHTTPVarURL: an HTTP method call whose URL starts with a name: an
// f-string or template whose first part is {NAME}/${NAME}, NAME + '…',
// or NAME alone.
var interpHTTPVarURL = lazyre.New(`\b(?:[\w.]+\.|\w+::)(delete|post|put|patch)\(\s*(?:f"\{(\w+)\}([^"]*)"|f'\{(\w+)\}([^']*)'|` + "`" + `\$\{(\w+)\}([^` + "`" + `]*)` + "`" + `|(\w+)\s*\+\s*[fr]?(?:"([^"]*)"|'([^']*)')|(\w+)\s*[,)])`)

// codeBaseAssign: NAME = an environment variable or a literal URL.
var codeBaseAssign = lazyre.New(`(?:^|[\s;(,])(\w+)\s*=\s*(?:os\.environ\[\s*['"](\w+)['"]\s*\]|os\.environ\.get\(\s*['"](\w+)['"]|os\.getenv\(\s*['"](\w+)['"]|process\.env\.(\w+)|process\.env\[\s*['"](\w+)['"]\s*\]|ENV\[\s*['"](\w+)['"]\s*\]|ENV\.fetch\(\s*['"](\w+)['"]|[fr]?['"](https?://[^'"\s]+)['"])`)

// interpVarURLCalls are the HTTP calls of code whose URL starts with a
// base the code assigned from the environment or a literal.
func interpVarURLCalls(code, creds string) []apiCall {
	if !strings.Contains(code, "=") || !interpHTTPVarURL.MatchString(code) {
		return nil
	}
	bases := map[string]string{}
	for _, m := range codeBaseAssign.FindAllStringSubmatch(code, 16) {
		for _, v := range m[2:8] {
			if v != "" {
				bases[m[1]] = "$" + v
			}
		}
		if m[8] != "" {
			bases[m[1]] = m[8]
		}
	}
	var out []apiCall
	for _, m := range interpHTTPVarURL.FindAllStringSubmatch(code, 8) {
		name, rest := "", ""
		switch {
		case m[2] != "":
			name, rest = m[2], m[3]
		case m[4] != "":
			name, rest = m[4], m[5]
		case m[6] != "":
			name, rest = m[6], m[7]
		case m[8] != "":
			name, rest = m[8], m[9]+m[10] // NAME + "…" | '…'
		default:
			name = m[11]
		}
		base, ok := bases[name]
		if !ok {
			continue
		}
		out = append(out, apiCall{method: strings.ToUpper(m[1]), urls: []string{strings.TrimRight(base, "/") + rest}, body: code, creds: creds})
	}
	return out
}
