package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A POST-only API names its operation in a field rather than the method
// or the path: Kea's control agent {"command":"statistic-get-all"}, a
// controller's XML <cmd action="read_val">, Matomo's
// ?method=VisitsSummary.get, a form's action=list. Such a call reads
// when every operation it names is a read (get, list, read, status,
// show…) and none changes, stops or destroys anything: the POST is the
// API's way of asking, not a change. A payload field beside it (data=,
// records=) or a GraphQL mutation is a change whatever the operation
// says.

// opFieldValue finds an operation field and its value in a JSON body
// ("command": "x"), an XML attribute (action="x") or a form or query
// pair (method=x).
var opFieldValue = re(`(?i)(?:^|[^\w])["']?(action|method|op|operation|cmd|command|function|call)["']?\s*[:=]\s*["']?([A-Za-z][\w.:-]*)`)

// opFieldReads: r is a POST whose body or URL query names its operation
// in an operation field, and every such operation only reads.
func opFieldReads(r apiCall) bool {
	if r.method != "POST" || strings.Contains(strings.ToLower(r.body), "mutation") {
		return false
	}
	for _, u := range r.urls {
		if webhookURL(u) {
			return false
		}
	}
	for _, kv := range bodyPairs(r.body) {
		if apiPayloadFields[normKey(kv[0])] {
			return false // data=, records=: something to store
		}
	}
	text := r.body
	for _, u := range r.urls {
		if _, q, ok := strings.Cut(u, "?"); ok {
			text += "\n" + q
		}
	}
	n := 0
	for _, m := range opFieldValue.FindAllStringSubmatch(text, -1) {
		v := m[2]
		if httpMethods[strings.ToUpper(v)] {
			continue // "method": "POST" beside a URL: the HTTP method, not the operation
		}
		if !opReads(v) {
			return false
		}
		n++
	}
	return n > 0
}

// opReads: an operation's name (statistic-get-all, read_val,
// VisitsSummary.get, listUsers) holds a read word and no word that
// changes, stops or destroys.
func opReads(v string) bool {
	t := consoles()
	change := opsList("grpc-change-verb")
	read := false
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == '.' || r == ':' || r == '/' }) {
		for _, w := range actionWords(part) {
			if callfacts.DestroyOrChangeWord(w) || change[w] || t.destroys[w] || t.stops[w] || t.changes[w] || opsList("api-write")[w] || opsList("api-destroy")[w] {
				return false
			}
			if apiFormReadWords[w] || callfacts.ReadWord(w) {
				read = true
			}
		}
	}
	return read
}
