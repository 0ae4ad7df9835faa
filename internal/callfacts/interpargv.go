package callfacts

import (
	"path"
	"strings"
)

// An interpreter runs a program from an argument list as well as from a
// string: subprocess.run(['rm', '-rf', p]), spawnSync('sh', ['-c',
// '…'], {stdio: 'inherit'}), system("sh", "-c", "…"). The list is the
// program's argv; a shell with -c in it runs the string after it as
// shell code (disguise12, #30).

// listArgv is the argv an exec call's arguments spell with a list
// literal: the literal naming the program before the [ (Node's
// spawn(cmd, [args])) and the literals inside the brackets. Literals
// after the list (options: {cwd: '/tmp'}, check=True) are not argv.
// nil when the arguments hold no list of literals.
func listArgv(args string) []string {
	open := -1
	outsideQuotesAt(args, func(i int, c byte) bool {
		if c == '[' {
			open = i
			return false
		}
		return true
	})
	if open < 0 {
		return nil
	}
	end := len(args)
	depth := 0
	outsideQuotesAt(args[open:], func(i int, c byte) bool {
		switch c {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				end = open + i
				return false
			}
		}
		return true
	})
	list := Literals(args[open+1 : end])
	if len(list) == 0 {
		return nil // proc_open("rm -rf …", [], $p): the list is not argv
	}
	return append(Literals(args[:open]), list...)
}

// argvCode is the shell code an argv runs: a shell's -c string (sh -c
// '…', bash -lc '…'), else the words joined, a word with blanks or
// shell syntax in it quoted so it stays one word.
func argvCode(argv []string) string {
	if len(argv) > 1 && path.Base(argv[0]) == path.Base(argv[1]) {
		argv = argv[1:] // os.execv('/bin/rm', ['rm', …]), spawnlp(m, 'rm', 'rm', …): the file, then argv[0]
	}
	for i := 0; i+2 < len(argv) && i < 2; i++ {
		if IsShell(path.Base(argv[i])) && shellCFlag(argv[i+1]) {
			return argv[i+2]
		}
	}
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		if a == "" || strings.ContainsAny(a, " \t\n'\"|;&<>()`") {
			b.WriteString("'" + strings.ReplaceAll(a, "'", `'\''`) + "'")
		} else {
			b.WriteString(a)
		}
	}
	return b.String()
}

// shellCFlag: a shell option word that takes the command string
// (-c, -lc, -ec, -xc).
func shellCFlag(a string) bool {
	return len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.HasSuffix(a, "c")
}

// outsideQuotesAt calls visit with each byte of code outside its '…' and
// "…" literals and its index, until visit returns false.
func outsideQuotesAt(code string, visit func(i int, c byte) bool) {
	q := byte(0)
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case q != 0:
			if c == '\\' {
				i++
			} else if c == q {
				q = 0
			}
		case c == '\'' || c == '"':
			q = c
		case !visit(i, c):
			return
		}
	}
}

// osExecFamily are the exec calls that take the program file and then
// its argv as separate arguments (Python's os.execl*/os.spawnl*).
var osExecFamily = map[string]bool{"execl": true, "execlp": true, "execv": true, "execvp": true, "spawnl": true, "spawnlp": true}
