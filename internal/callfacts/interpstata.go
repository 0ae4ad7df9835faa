package callfacts

import (
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// Stata's do-files hand lines to the shell by a command word, not a
// call: shell CMD, its synonym ! CMD, xshell CMD and winexec CMD run CMD
// (printf 'shell rm -rf ~/data/raw\n' > /tmp/c.do && stata-mp -b do
// /tmp/c.do deletes ~/data/raw), and erase FILE (rm FILE on Unix) and
// rmdir DIR delete. Those lines are read as the shell commands they
// are; the rest of a do-file (regress, merge, save …) works on the
// dataset in memory and the files it names, as other languages' code is
// read (interp.go). Prefixes that only change output or errors
// (quietly, noisily, capture) are dropped first.

// lineReaders give the shell commands of a language whose code runs
// them by line rather than by call, by the name its code is read under.
var lineReaders = map[string]func(code string) []string{"stata-do": stataShellLines}

// stataPrefixes only change how a command's output or error shows.
var stataPrefixes = []string{"quietly", "qui", "quietly:", "qui:", "noisily", "noi", "noisily:", "noi:", "capture", "cap", "capture:", "cap:"}

// stataShellLines: the shell commands Stata code runs.
func stataShellLines(code string) []string {
	var out []string
	for _, line := range strings.Split(code, "\n") {
		l := strings.TrimSpace(line)
	prefixes:
		for {
			for _, p := range stataPrefixes {
				if rest, ok := strings.CutPrefix(l, p); ok && (strings.HasSuffix(p, ":") || rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '!') {
					l = strings.TrimSpace(rest)
					continue prefixes
				}
			}
			break
		}
		if len(out) >= 16 {
			break
		}
		switch {
		case strings.HasPrefix(l, "!"):
			out = append(out, strings.TrimSpace(strings.TrimLeft(l, "!")))
		default:
			word, rest, _ := strings.Cut(l, " ")
			rest = strings.TrimSpace(rest)
			if rest == "" {
				continue
			}
			switch word {
			case "shell", "sh", "xshell", "winexec":
				out = append(out, rest)
			case "erase", "rm":
				out = append(out, "rm "+rest)
			case "rmdir":
				out = append(out, "rmdir "+rest)
			}
		}
	}
	return out
}

// langScriptExts are the script extensions of the languages of
// interphosts.txt by the program their code is read under (stata-do:
// .do .ado; julia: .jl): a file so named, given to that program, is the
// script it runs (ScriptFile), as x.py is python3's.
var langScriptExts = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, l := range datatable.Lines("interphosts.txt", interpHostsText) {
		if f := l.Fields; f[0] == "lang" && len(f) > 4 {
			m[f[2]] = f[4:]
		}
	}
	return m
})

// langScript: a is a script of the language program name reads.
func langScript(name, a string) bool {
	for _, e := range langScriptExts()[name] {
		if strings.HasSuffix(a, e) && len(a) > len(e) {
			return true
		}
	}
	return false
}
