package policy

import "strings"

// createdTag reports whether r is the name of a tag a git tag command
// earlier on the line creates (git tag -a "v$VER" -m … && git push origin
// "v$VER"): what is pushed is a tag, a release, whatever its name looks
// like (a variable's value is not on the line to read as a version).
func createdTag(e *Env, upto *Cmd, r string) bool {
	r = strings.TrimPrefix(r, "refs/tags/")
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c == upto {
			return false
		}
		if c.Name != "git" || sub(c) != "tag" || c.Has("-d", "--delete", "-l", "--list", "-v", "--verify", "-n") {
			continue
		}
		if n := tagName(c); n != "" && n == r {
			return true
		}
	}
	return false
}

// tagName is the name git tag c creates: its first operand, the values
// of -m, -F and -u left out.
func tagName(c *Cmd) string {
	skip := false
	for _, a := range c.Args[1:] {
		switch {
		case skip:
			skip = false
		case a == "-m" || a == "-F" || a == "-u" || a == "--message" || a == "--file" || a == "--local-user" || a == "--cleanup":
			skip = true
		case a == "--":
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}
