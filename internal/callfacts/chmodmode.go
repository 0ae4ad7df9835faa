package callfacts

import "strings"

// chmodMode is chmod's mode argument ("" for --reference or none).
func chmodMode(c *Cmd) string {
	if c.Name == "install" { // install -m 4755 src dst: the mode it gives the copy
		if m := OptionValues(c.Args, []string{"-m", "--mode"}); len(m) > 0 {
			return m[len(m)-1]
		}
		return ""
	}
	if c.Name != "chmod" || len(c.Pos) == 0 || c.Has("--reference") {
		return ""
	}
	return c.Pos[0]
}

// SetsID reports whether c is a chmod that sets the set-user-ID or
// set-group-ID bit (u+s, g+s, +s, 4755, 2755): whoever runs the file
// then runs it as its owner, root for a system binary.
func (c *Cmd) SetsID() bool {
	m := chmodMode(c)
	switch {
	case m == "":
		return false
	case octal(m):
		return len(m) >= 4 && strings.ContainsAny(m[len(m)-4:len(m)-3], "234567")
	}
	for _, cl := range strings.Split(m, ",") {
		if i := strings.IndexAny(cl, "+="); i >= 0 && strings.ContainsRune(cl[i:], 's') {
			return true
		}
	}
	return false
}

// TightensMode reports whether c is a chmod that only takes access away
// from others (600, 400, 700, go-rwx, o=, u=rw): the usual fix for a key
// whose permissions ssh refuses. Adding bits for group or others, or any
// special bit, is not tightening.
func (c *Cmd) TightensMode() bool {
	m := chmodMode(c)
	switch {
	case m == "":
		return false
	case octal(m):
		d := strings.TrimLeft(m, "0")
		return len(d) <= 3 && (len(d) < 2 || d[len(d)-2] == '0') && (len(d) < 1 || d[len(d)-1] == '0') || d == ""
	}
	for _, cl := range strings.Split(m, ",") {
		i := strings.IndexAny(cl, "+-=")
		if i < 0 {
			return false
		}
		who, op, perms := cl[:i], cl[i], cl[i+1:]
		if strings.Trim(who, "ugoa") != "" || strings.ContainsAny(perms, "stX") && op != '-' {
			return false
		}
		if op != '-' && !(who != "" && strings.Trim(who, "u") == "") && !(op == '=' && perms == "") {
			return false // adds (or sets) bits for group or others
		}
	}
	return true
}

func octal(s string) bool {
	return s != "" && strings.Trim(s, "01234567") == ""
}
