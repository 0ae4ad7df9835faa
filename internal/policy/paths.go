package policy

import (
	"path"
	"strings"
)

// NormPath makes p absolute against cwd, expands ~, $HOME and ${HOME},
// resolves . and .., and turns Windows separators and drive letters into
// forward slashes ("C:\\Users\\me" -> "/c/Users/me") so one set of globs
// covers both. Globs (*) are kept as written. It never touches the disk:
// rules must decide on what the command says, not on what exists now.
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
	}
	if !strings.HasPrefix(p, "/") {
		if cwd == "" {
			cwd = "/"
		}
		p = cwd + "/" + p
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

// under reports whether p is dir or inside it.
func under(p, dir string) bool {
	if dir == "" {
		return false
	}
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// pathLike reports whether a command-line word names a file rather than,
// say, a branch or a pattern: it has a slash, starts with ~ . or $HOME, or is
// a dotfile-like name.
func pathLike(w string) bool {
	if w == "" || strings.HasPrefix(w, "-") {
		return false
	}
	return strings.ContainsAny(w, "/\\") || w[0] == '~' || w[0] == '.' ||
		strings.HasPrefix(w, "$HOME") || strings.HasPrefix(w, "${HOME}") || w == "*"
}

// topLevelDirs are the directories whose recursive removal wrecks a system.
var topLevelDirs = map[string]bool{
	"/bin": true, "/boot": true, "/dev": true, "/etc": true, "/home": true, "/lib": true,
	"/lib32": true, "/lib64": true, "/libx32": true, "/media": true, "/mnt": true, "/opt": true,
	"/proc": true, "/root": true, "/run": true, "/sbin": true, "/srv": true, "/sys": true,
	"/usr": true, "/var": true, "/snap": true, "/Users": true, "/System": true, "/Library": true,
	"/Applications": true, "/private": true, "/Volumes": true, "/usr/bin": true, "/usr/lib": true,
	"/usr/local": true, "/var/lib": true, "/c": true, "/c/Windows": true, "/c/Users": true,
}

// critical reports why removing p recursively would be a disaster, or "".
// p is normalized; a trailing /* or * glob counts as the directory itself.
func critical(p, home string) string {
	q := strings.TrimSuffix(strings.TrimSuffix(p, "/*"), "*")
	q = strings.TrimSuffix(q, "/.")
	if q == "" || q == "/" {
		return "the root directory"
	}
	if home != "" && (q == home || q == path.Dir(home) && q != "/") {
		return "the home directory"
	}
	if topLevelDirs[q] {
		return "the system directory " + q
	}
	// /home/user, /Users/user: someone's home.
	if d := path.Dir(q); d == "/home" || d == "/Users" {
		return "the home directory " + q
	}
	return ""
}
