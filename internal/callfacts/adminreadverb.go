package callfacts

import "strings"

// CompoundReadVerb reports whether v, an admin CLI's verb that no table
// line names, is a read joined to its noun or its noun's test: user-find,
// cert-show, host_list, hbactest, healthcheck, configtest. The parts
// are split on - _ : and the read must come last, after its noun; a part
// that is a change or destroy word (user-del, list-delete) is not a read. A verb that ends with a check
// or a test (hbactest, healthcheck) evaluates what is there.
func CompoundReadVerb(v string) bool {
	v = strings.ToLower(v)
	if v == "" || strings.Trim(v, "abcdefghijklmnopqrstuvwxyz0123456789-_:") != "" {
		return false
	}
	parts := strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '_' || r == ':' })
	for _, p := range parts {
		if DestroyOrChangeWord(p) {
			return false
		}
	}
	last := parts[len(parts)-1]
	if len(parts) > 1 && (ReadWord(last) || compoundReads[last]) {
		return true // the noun, then the read: user-find, host_show (search-replace is no read)
	}
	for _, suf := range []string{"test", "check", "find", "show", "list"} {
		if strings.HasSuffix(last, suf) && len(last) > len(suf)+1 {
			return true
		}
	}
	return false
}

// compoundReads are read parts beyond verbs.txt's reads.
var compoundReads = map[string]bool{"find": true, "test": true, "check": true, "verify": true, "query": true, "lookup": true, "healthcheck": true}
