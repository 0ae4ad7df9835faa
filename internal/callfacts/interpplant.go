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
		n.interpWrites(lits)
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

// interpWrites records the file an interpreter's code writes, with the
// text literals it writes there, so a later command of the line that runs
// the file runs that text (python3 -c 'open("/tmp/x.sh","w").write("…")'
// && sh /tmp/x.sh), as echo … > x.sh does. The file is the first literal
// that names a path; with no literal beside it the code writes text the
// line does not show.
func (n *normalizer) interpWrites(lits []string) {
	target := ""
	var body []string
	for _, l := range lits {
		switch {
		case fileModes[strings.ToLower(l)] || strings.TrimSpace(l) == "":
		case target == "" && (PathLike(l) || scriptNames[path.Ext(l)]) && !strings.ContainsAny(l, " \n"):
			target = l
		case target != "":
			body = append(body, l)
		}
	}
	if target == "" {
		return
	}
	t := text{known: len(body) > 0, s: strings.Join(body, "\n")}
	n.writeFile(NormPath(target, n.cwd, n.home), t, false)
}

// scriptNames are the extensions of a bare file name (Path("x.ps1")) that
// the code writes as a script to run.
var scriptNames = map[string]bool{".sh": true, ".bash": true, ".zsh": true, ".ps1": true, ".py": true, ".js": true, ".rb": true, ".pl": true, ".sql": true}
