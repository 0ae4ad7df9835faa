package policy

import "strings"

// Many older or RPC-style web APIs take one endpoint and name the action
// in a form or query field rather than in the method or the path:
// REDCap's content=arm&action=delete, a CMS's op=remove, a Rails or PHP
// app's _method=DELETE, a batch's cmd=purge_all. apiBodyAction reads the
// JSON form of such a field; apiFormAction reads the key=value form, so
// a POST whose action field removes is judged like a DELETE.

// formActionKeys name the request's action in a form or query field.
var formActionKeys = map[string]bool{"action": true, "op": true, "operation": true, "cmd": true, "command": true, "method": true, "_method": true, "verb": true, "do": true, "task": true, "mode": true}

// apiFormAction says which action field of r's form body or query string
// removes ("" when none does).
func apiFormAction(r apiCall) string {
	s := r.body
	for _, u := range r.urls {
		if _, q, ok := strings.Cut(u, "?"); ok {
			s += "&" + q
		}
	}
	if !strings.Contains(s, "=") {
		return ""
	}
	destroy := opsList("api-destroy")
	for _, kv := range bodyPairs(s) {
		k := strings.TrimLeft(kv[0], "-")
		if !formActionKeys[k] {
			continue
		}
		for _, w := range strings.FieldsFunc(kv[1], func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ' ' }) {
			if destroy[w] || destroyPrefix(w, destroy) {
				return "the action " + kv[0] + "=" + kv[1] + " in the request"
			}
		}
	}
	return ""
}

// destroyPrefix: w starts with a removing word and goes on with a noun
// (deleterecords, removeall, purgecache): a form value lower-cased loses
// its camel case.
func destroyPrefix(w string, destroy map[string]bool) bool {
	for _, v := range []string{"delete", "destroy", "remove", "purge", "drop", "truncate", "wipe", "erase", "expunge"} {
		if len(w) > len(v)+2 && strings.HasPrefix(w, v) && !strings.HasSuffix(w, "ed") && destroy[v] {
			return true
		}
	}
	return false
}
