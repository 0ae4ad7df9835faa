package callfacts

import (
	"path"
	"strings"
)

// globNames are the programs a glob in command position is tried
// against, most harmful first: /???/r? -rf ~ runs rm where /bin/rm is.
var globNames = []string{"rm", "dd", "shred", "mkfs", "wipefs", "chmod", "chown", "mv", "truncate", "find", "kill", "curl", "wget",
	"nc", "sh", "bash", "zsh", "dash", "python3", "python", "perl", "ruby", "node", "git", "sudo", "tee", "cp"}

// GlobLike reports whether a command name is a glob: * or ?, or a [set]
// (the test command [ is not).
func GlobLike(name string) bool {
	if strings.ContainsAny(name, "*?") {
		return true
	}
	i := strings.IndexByte(name, '[')
	return i >= 0 && strings.IndexByte(name[i+1:], ']') > 0
}

// globName resolves a command name written as a glob to the first program
// it matches; one it matches none of stays as written (an unknown
// command, core.indirect asks).
func (n *normalizer) globName(pat string) string {
	for _, g := range globNames {
		if ok, _ := path.Match(pat, g); ok {
			n.derive("the glob %s in command position matches %s", pat, g)
			return g
		}
	}
	return pat
}
