package callfacts

import (
	"strconv"
	"strings"
)

// s21 disguise: file names from ls or find (a glob standing for many
// lines, text.names) narrowed by a stage that only keeps some of its
// lines — head, tail, sort, uniq, tac, shuf, grep of a pattern — are
// still names under the same glob: ls -t ~/backups/*.bin | tail -n +4 |
// xargs rm deletes some of ~/backups/*.bin, judged by where they are as
// ls ~/backups/*.bin | xargs rm is. Which lines are kept is not on the
// line, so as a script the names stay unknown (scriptOf); as arguments
// their place is what is judged.
func passNames(name string, args []string, stdin text) (text, bool) {
	if !stdin.known || !stdin.names {
		return text{}, false
	}
	switch name {
	case "head", "tail", "sort", "uniq", "tac", "shuf":
		if (name == "head" || name == "tail") && fewLines(args) {
			return text{}, false // tail -n 1: one file of the many, a single delete's ask
		}
		for _, a := range args {
			if a == "-c" || strings.HasPrefix(a, "--bytes") || name == "tail" && (a == "-f" || a == "-F" || a == "--follow") {
				return text{}, false // bytes cut a name into another
			}
		}
	case "grep", "egrep", "fgrep", "rg":
		for _, a := range args {
			switch a {
			case "-o", "--only-matching", "-c", "--count", "-l", "-L", "-n", "-b", "-H", "-A", "-B", "-C", "-r", "-R":
				return text{}, false // parts of names, counts or other files' names
			}
		}
	default:
		return text{}, false
	}
	stdin.narrowed = true
	return stdin, true
}

// fewLines: head or tail keeps at most three lines (-n 1, -2, --lines=3;
// not tail -n +4, all but the first three): the names kept are a few
// single files, not the glob's many.
func fewLines(args []string) bool {
	for i, a := range args {
		v := ""
		switch {
		case (a == "-n" || a == "--lines") && i+1 < len(args):
			v = args[i+1]
		case strings.HasPrefix(a, "--lines="):
			v = a[len("--lines="):]
		case strings.HasPrefix(a, "-n") && len(a) > 2:
			v = a[2:]
		case len(a) > 1 && a[0] == '-' && isDigits(a[1:]):
			v = a[1:]
		}
		if v == "" || strings.HasPrefix(v, "+") || strings.HasPrefix(v, "-") {
			continue
		}
		if k, err := strconv.Atoi(v); err == nil && k <= 3 {
			return true
		}
	}
	return false
}
