package callfacts

import (
	"strings"
	"testing"
)

// TestIsInterpreterByEnds: the first-and-last-byte filter of
// IsInterpreter (interpreterEnds) gives the answers of the map and the
// versioned prefixes alone, on every interpreter's name, versioned and
// changed forms of them, and common programs.
func TestIsInterpreterByEnds(t *testing.T) {
	want := func(name string) bool {
		if _, ok := interpreters[name]; ok {
			return true
		}
		for _, p := range []string{"python", "ruby", "perl", "node", "php"} {
			if strings.HasPrefix(name, p) && len(name) > len(p) && (name[len(p)] >= '0' && name[len(p)] <= '9') {
				return true
			}
		}
		return false
	}
	names := []string{"", "r", "p", "git", "curl", "sh", "bash", "go", "npm", "make", "cat", "rm", "python3.12", "ruby3.2", "perl5.36", "node18", "php8.2", "pythonx", "Python", "nodejs", "tclsh", "wish", "x"}
	for n := range interpreters {
		names = append(names, n, n+"1", n+"x", "x"+n, strings.ToUpper(n), n[:len(n)-1])
	}
	for _, n := range names {
		if got := IsInterpreter(n); got != want(n) {
			t.Errorf("IsInterpreter(%q) = %v, the map and the prefixes say %v", n, got, want(n))
		}
	}
}

// TestIsShellByEnds: IsShell's filter (shellEnds) gives the map's answers.
func TestIsShellByEnds(t *testing.T) {
	names := []string{"", "h", "sh", "bash", "zsh", "csh", "tcsh", "git", "push", "fish", "ash", "Sh", "shh", "bsh"}
	for n := range shells {
		names = append(names, n, n+"h", "x"+n, strings.ToUpper(n), n[:len(n)-1], n[1:])
	}
	for _, n := range names {
		if got := IsShell(n); got != shells[n] {
			t.Errorf("IsShell(%q) = %v, the map says %v", n, got, shells[n])
		}
	}
}
