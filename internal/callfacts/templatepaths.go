package callfacts

import "strings"

// templateItem is what stands for the replace string of an xargs -I or
// parallel template in word a when the input is unknown: in a path
// whose fixed part names a directory (rm ~/Matters/review/{}, mv
// {} /srv/archive/{}), the names come from input but the deletes land
// there, so the word reads as a glob over that directory (any files of
// it), which the zone rules judge by where it is; elsewhere the unknown
// value itself ($INPUT). Only a deleting program's operands (tools.txt
// args=delete: rm, unlink, shred, trash) read so.
func templateItem(prog, a, repl, item string) string {
	if item != "$INPUT" {
		return item
	}
	if t := toolTable()[ProgramName(prog)]; t == nil || t.args != OpDelete {
		return item // a copy's or move's destination: where new files go, not a delete (cp {} ~/backup/{})
	}
	i := strings.Index(a, repl)
	if i < 2 || a[i-1] != '/' || strings.ContainsAny(a[:i], "$`") {
		return item
	}
	return "*"
}
