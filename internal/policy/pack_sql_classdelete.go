package policy

import "strings"

// A DELETE that picks its rows by a class column (WHERE
// post_type='shop_order', status = 'cancelled', category = 'x') removes a
// whole kind of record, every order or every cancelled account, not one
// row: on a server that is another machine it is a bulk delete of shared
// data (external.systems:sql-remote). A WHERE that also names a key
// (id, *_id, uuid, email, slug) picks rows one by one and stays a
// single-row change.
var (
	sqlDeleteFrom = re(`(?is)^\s*delete\s+from\s+\S+`)
	sqlClassEq    = re(`(?i)\b\w*(type|status|state|category|kind|class|group|source|channel|tier|level)\s*=\s*'`)
	sqlKeyEq      = re(`(?i)\b(id|\w+_id|\w+id|uuid|guid|email|slug|login|username|key)\s*(=|\bin\b)`)
)

// classDelete is the first statement of text that deletes a class of
// rows, "" for none.
func classDelete(text string) string {
	for _, st := range strings.Split(text, ";") {
		st = strings.TrimSpace(st)
		if !sqlDeleteFrom.MatchString(st) {
			continue
		}
		m := sqlWhere.FindStringSubmatch(st)
		if m != nil && sqlClassEq.MatchString(m[1]) && !sqlKeyEq.MatchString(m[1]) && !sqlRollingWindow.MatchString(m[1]) {
			return st
		}
	}
	return ""
}
