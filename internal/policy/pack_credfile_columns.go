package policy

import (
	"path"
	"strconv"
	"strings"
)

// Field-separated credential files keep the secret in one known column:
// ~/.pgpass is host:port:database:user:password, an htpasswd file
// user:hash. Printing the other columns (awk
// -F: '{print $1":"$2":"$3":"$4}' ~/.pgpass, cut -d: -f1,3 ~/.pgpass)
// lists hosts, databases and users, not the secret: a read the secret
// rules let through. .netrc is not here: its words are keyword-value
// pairs on free lines, not columns, so no column is safe to name.

type credColumns struct {
	sep    string
	secret int // 1-based column where the secret starts: it and every later one (a password may hold the separator)
}

var credFieldFiles = map[string]credColumns{
	".pgpass": {":", 5}, "pgpass.conf": {":", 5}, ".htpasswd": {":", 2}, "htpasswd": {":", 2},
}

// awkFieldRef is a field an awk program names: $3, $NF, $0, $(…).
var awkFieldRef = re(`\$\s*(\w+|\()`)

// awkBarePrint is a print of the whole record (print; print }).
var awkBarePrint = re(`\bprint(?:f)?\s*(?:[;}]|$)`)

// nonSecretColumns reports whether every command via of the line that
// reads file p prints only columns other than its secret's, and nothing
// on the line sends.
func nonSecretColumns(e *Env, via, p string) bool {
	spec, ok := credFieldFiles[path.Base(p)]
	if !ok || len(e.F.Cmds(senders...)) > 0 {
		return false
	}
	n := 0
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c.Name != via {
			continue
		}
		n++
		// its own columns, or a later stage's (grep gis-prod ~/.pgpass | cut -d: -f1-4)
		if !columnsOnly(c, spec) && !downstreamDoes(e, i, func(d *Cmd) bool { return columnsOnly(d, spec) }) {
			return false
		}
	}
	return n > 0
}

// columnsOnly: c (awk -F SEP or cut -d SEP) prints named columns, none the
// secret's.
func columnsOnly(c *Cmd, spec credColumns) bool {
	switch c.Name {
	case "awk", "gawk", "mawk", "nawk":
		if optJoined(c, "-F") != spec.sep || len(c.Pos) == 0 {
			return false
		}
		prog := c.Pos[0]
		if awkBarePrint.MatchString(prog) || strings.Contains(prog, "getline") || strings.Contains(prog, "system") {
			return false
		}
		refs := awkFieldRef.FindAllStringSubmatch(prog, -1)
		for _, m := range refs {
			n, err := strconv.Atoi(m[1])
			if err != nil || n <= 0 || n >= spec.secret {
				return false // $0, $NF, $(i), the secret's columns
			}
		}
		return len(refs) > 0
	case "cut":
		if optJoined(c, "-d", "--delimiter") != spec.sep || c.Has("--complement") {
			return false
		}
		f := optJoined(c, "-f", "--fields")
		if f == "" {
			return false
		}
		rs, ok := cutRanges(f)
		if !ok {
			return false
		}
		for _, r := range rs {
			if r[1] < 0 || r[1] >= spec.secret {
				return false // N-: to the last column; or the secret's column
			}
		}
		return true
	}
	return false
}
