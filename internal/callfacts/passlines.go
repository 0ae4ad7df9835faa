package callfacts

import (
	"strconv"
	"strings"
)

// passLines: what a stage that only copies or selects whole lines of its
// input prints, when that input is known (echo 'pytest -x' | tee last.txt
// | sh, yes 'echo ok' | head -3 | sh, awk '{print "make -n " $1}' Makefile
// | head -5 | sh). tee copies its input exactly; head and tail keep the
// lines they count, computed exactly, so a dropped `cd` cannot make the
// shell run a line elsewhere than it is judged (printf 'cd /tmp/x\nrm -rf
// *\n' | tail -n 1 | sh is judged as rm -rf * here). Byte counts (-c) can
// cut a line into another command (rm -rf /tmpdir → rm -rf /) and a file
// operand is text the line does not show: both stay unknown. yes prints
// its words as one line, over and over: once is what the shell runs.
// ok is false for other commands and forms.
func passLines(name string, args []string, stdin text) (text, bool) {
	switch name {
	case "yes":
		for _, a := range args {
			if strings.HasPrefix(a, "-") {
				return text{}, false // --help, --version: not a line to run
			}
		}
		if len(args) == 0 {
			return text{s: "y\n", known: true}, true
		}
		return text{s: strings.Join(args, " ") + "\n", known: true}, true
	case "tee":
		if !stdin.known {
			return text{}, false
		}
		return stdin, true // the files are written (outputs); the input passes on
	case "sort", "uniq":
		return reorderedLines(name, args, stdin)
	case "head", "tail":
		if !stdin.known || stdin.names {
			// file names from ls or find are globs that stand for many
			// lines: which of them head keeps is not on the line
			return text{}, false
		}
		count, from := 10, false
		for i := 0; i < len(args); i++ {
			a, v := args[i], ""
			switch {
			case a == "-q" || a == "-v" || a == "--quiet" || a == "--silent" || a == "--verbose":
				continue
			case a == "-n" || a == "--lines":
				if i+1 >= len(args) {
					return text{}, false
				}
				v, i = args[i+1], i+1
			case strings.HasPrefix(a, "--lines="):
				v = a[len("--lines="):]
			case strings.HasPrefix(a, "-n"):
				v = a[2:]
			case len(a) > 1 && a[0] == '-' && isDigits(a[1:]):
				v = a[1:] // head -5
			default:
				return text{}, false // -c, -f, a file operand: not read
			}
			if strings.HasPrefix(v, "+") && name == "tail" {
				from, v = true, v[1:]
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return text{}, false // head -n -2 (all but the last) and the like
			}
			count = n
		}
		lines := strings.SplitAfter(stdin.s, "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		switch {
		case name == "head":
			lines = lines[:min(count, len(lines))]
		case from:
			lines = lines[min(max(count-1, 0), len(lines)):]
		default:
			lines = lines[len(lines)-min(count, len(lines)):]
		}
		out := stdin
		out.s = strings.Join(lines, "")
		return out, true
	}
	return text{}, false
}
