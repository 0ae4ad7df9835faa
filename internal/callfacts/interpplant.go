package callfacts

import (
	"path"
	"strings"
)

// Text an interpreter's code writes into a file that runs later (a shell
// start-up file, a git hook, a cron file) is checked as if it ran now,
// as the shell's own `echo … >> ~/.bashrc` is (output.go writeFile):
// open(os.path.expanduser('~/.bashrc'), 'a').write('curl … | sh')
// plants curl | sh (disguise12, #30).

// fileModes are open()'s mode strings, no text written.
var fileModes = map[string]bool{"w": true, "a": true, "wb": true, "ab": true, "w+": true, "a+": true, "r+": true, "r": true, "utf-8": true, "utf8": true}

// interpPlants parses as shell the string literals of code that writes
// to a file that runs later, when the code names such a file.
func (n *normalizer) interpPlants(name, code string, depth int) {
	lits := textLiterals(code)
	target := ""
	for _, l := range lits {
		if PathLike(l) && !strings.ContainsAny(l, " \n") && runsLater(NormPath(l, n.cwd, n.home)) {
			target = l
			break
		}
	}
	if target == "" {
		return
	}
	for _, l := range lits {
		if l == target || fileModes[strings.ToLower(l)] || strings.TrimSpace(l) == "" {
			continue
		}
		n.derive("the %s code writes %q to %s, which runs later", name, short(l), target)
		n.shell(l, depth+1, []string{"runs later from " + path.Base(target)}, nil)
	}
}

// textLiterals is Literals with the escapes of written text resolved
// (\n a new line, \t a tab), so the lines the code writes stay lines.
func textLiterals(code string) []string { return literals(code, true) }
