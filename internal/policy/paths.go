package policy

import (
	"path"
	"strings"
)

// under reports whether p is dir or inside it.
func under(p, dir string) bool {
	if dir == "" {
		return false
	}
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == dir || isUnder(p, dir)
}

// isUnder reports whether p is dir/… (strings.HasPrefix(p, dir+"/")
// without building the string: rules ask it of every path of a call).
func isUnder(p, dir string) bool {
	return len(p) > len(dir) && p[len(dir)] == '/' && p[:len(dir)] == dir
}

// cutOpt is strings.CutPrefix(a, o+"=") without building o+"=": the
// option readers ask it of every argument.
func cutOpt(a, o string) (string, bool) {
	if len(a) > len(o) && a[len(o)] == '=' && a[:len(o)] == o {
		return a[len(o)+1:], true
	}
	return a, false
}

// underSub reports whether p is dir/sub or lies under it, like
// under(p, path.Join(dir, sub)) without building the path: rules ask it
// for every path of a call.
func underSub(p, dir, sub string) bool {
	if dir == "/" || dir == "" || strings.Contains(sub, "..") {
		return under(p, path.Join(dir, sub))
	}
	if len(p) <= len(dir) || p[len(dir)] != '/' || !strings.HasPrefix(p, dir) {
		return false
	}
	rest := p[len(dir)+1:]
	return strings.HasPrefix(rest, sub) && (len(rest) == len(sub) || rest[len(sub)] == '/')
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
