package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// hookChmod reads a chmod that stops Claude Code's hooks from running:
// a mode that takes the owner's read or execute (search) permission
// (000, 644, a-rwx, u-x, -x, a=r) given to a hook script, to the hooks
// directory itself (its scripts can no longer be reached), or to a
// .claude directory (its settings, where the hooks are named, can no
// longer be read). Recursion does not matter: the directory alone is
// enough. It returns the file named and whether it is a script.
func hookChmod(e *Env, c *Cmd) (string, bool) {
	var files []string
	switch {
	case callfacts.ChmodFlagMode(c):
		// chmod -x FILE, chmod -R -rwx DIR: the mode parsed as a flag
		off := false
		for _, f := range c.Flags {
			if len(f) > 1 && f[0] == '-' && strings.Trim(f[1:], "rwxXst") == "" && strings.ContainsAny(f[1:], "rxX") {
				off = true
			}
		}
		if !off {
			return "", false
		}
		files = c.Pos
	case len(c.Pos) > 1 && modeTakesOwnerAccess(c.Pos[0]):
		files = c.Pos[1:]
	default:
		return "", false
	}
	for _, a := range files {
		p := e.abs(c, a)
		switch {
		case hookScript(p):
			return a, true
		case strings.HasSuffix(p, "/.claude/hooks") || path.Base(p) == ".claude":
			return a, false
		}
	}
	return "", false
}

// modeTakesOwnerAccess reports whether a chmod mode leaves the owner
// without read or execute: an octal mode whose owner digit lacks 4 or
// 1, or a symbolic clause for u or a (or nobody named, which is all)
// that removes r or x, or sets the bits without one of them.
func modeTakesOwnerAccess(m string) bool {
	if m == "" {
		return false
	}
	if strings.Trim(m, "01234567") == "" {
		if len(m) < 3 {
			return false // chmod 7 f: not a mode people type
		}
		d := m[len(m)-3] - '0'
		return d&4 == 0 || d&1 == 0
	}
	for _, cl := range strings.Split(m, ",") {
		i := strings.IndexAny(cl, "+-=")
		if i < 0 {
			continue
		}
		who, op, perms := cl[:i], cl[i], cl[i+1:]
		if strings.Trim(who, "ugoa") != "" || who != "" && !strings.ContainsAny(who, "ua") {
			continue
		}
		switch op {
		case '-':
			if strings.ContainsAny(perms, "rxX") {
				return true
			}
		case '=':
			if !strings.Contains(perms, "r") || !strings.ContainsAny(perms, "xX") {
				return true
			}
		}
	}
	return false
}
