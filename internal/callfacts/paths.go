package callfacts

import (
	"path"
	"strings"
)

// NormPath makes p absolute against cwd, expands ~, $HOME and ${HOME},
// resolves . and .., and turns Windows separators and drive letters into
// forward slashes ("C:\\Users\\me" -> "/c/Users/me") so one set of globs
// covers both. Globs (*) are kept as written, but a first component that
// matches one system directory only (/et?) is that directory. It never
// touches the disk: rules must decide on what the command says, not on
// what exists now.
func NormPath(p, cwd, home string) string {
	if p == "" {
		return ""
	}
	if strings.ContainsRune(p, '\\') && !strings.Contains(p, "/") || len(p) > 2 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') {
		p = winPath(p)
	}
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		p = home + p[1:]
	case len(p) > 1 && p[0] == '~' && (p[1] >= 'a' && p[1] <= 'z' || p[1] == '_'):
		// ~user is that user's home
		user, rest, _ := strings.Cut(p[1:], "/")
		if user == "root" {
			p = "/root/" + rest
		} else {
			p = "/home/" + user + "/" + rest
		}
	case p == "$HOME" || strings.HasPrefix(p, "$HOME/"):
		p = home + p[5:]
	case p == "${HOME}" || strings.HasPrefix(p, "${HOME}/"):
		p = home + p[7:]
	case strings.HasPrefix(p, "%USERPROFILE%"):
		p = home + p[len("%USERPROFILE%"):]
	case strings.HasPrefix(p, "$env:USERPROFILE"):
		p = home + p[len("$env:USERPROFILE"):]
	default:
		p = winProfileDir(p, home)
	}
	if !strings.HasPrefix(p, "/") {
		if cwd == "" {
			cwd = "/"
		}
		p = cwd + "/" + p
	}
	return systemGlobTop(cleanKeepingVarParent(p))
}

// systemGlobTop resolves a first component written as a glob to the one
// system directory it matches (/et?/passwd is /etc/passwd where bash runs
// it: the glob expands to the directory every machine has). A glob that
// matches none of them, or several, stays as written.
func systemGlobTop(p string) string {
	if len(p) < 2 || !strings.ContainsAny(p, "*?[") {
		return p
	}
	top, rest, _ := strings.Cut(p[1:], "/")
	if !GlobLike(top) {
		return p
	}
	found := ""
	for _, d := range systemDirs {
		name := d[1:]
		if strings.Contains(name, "/") {
			continue
		}
		if ok, _ := path.Match(top, name); ok {
			if found != "" {
				return p
			}
			found = name
		}
	}
	if found == "" {
		return p
	}
	if rest == "" {
		return "/" + found
	}
	return "/" + found + "/" + rest
}

// cleanKeepingVarParent is path.Clean(p), except that a ".." after a
// variable's part ($TMPDIR/../x) stays: it climbs out of the variable's
// value, not out of the directory before it, so it is resolved only
// once the value is known (knownVar) or the target stays unknown.
func cleanKeepingVarParent(p string) string {
	if !strings.Contains(p, "..") || !strings.Contains(p, "$") {
		return path.Clean(p)
	}
	segs := strings.Split(p, "/")
	for k, sg := range segs {
		if !strings.HasPrefix(sg, "${") && !(strings.HasPrefix(sg, "$") && len(sg) > 1 && (isLetter(sg[1]) || sg[1] == '_')) {
			continue // a command's output ($(git rev-parse --show-toplevel)/..) is read as before
		}
		for _, later := range segs[k+1:] {
			if later == ".." {
				return path.Clean(strings.Join(segs[:k], "/")+"/") + "/" + strings.Join(segs[k:], "/")
			}
		}
		break
	}
	return path.Clean(p)
}

// winPath converts C:\a\b to /c/a/b and a\b to a/b.
func winPath(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	if len(p) >= 2 && p[1] == ':' {
		p = "/" + strings.ToLower(p[:1]) + p[2:]
	}
	return p
}

// PathLike reports whether a command-line word names a file rather than,
// say, a branch or a pattern: it has a slash, starts with ~ . or $HOME, or is
// a dotfile-like name.
func PathLike(w string) bool {
	if w == "" || strings.HasPrefix(w, "-") {
		return false
	}
	return strings.ContainsAny(w, "/\\") || w[0] == '~' || w[0] == '.' ||
		strings.HasPrefix(w, "$HOME") || strings.HasPrefix(w, "${HOME}") || w == "*"
}
