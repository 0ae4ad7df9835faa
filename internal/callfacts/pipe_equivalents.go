package callfacts

import "strings"

// Forms of "the shell runs what a stage prints" whose text is as known as
// the command they stand for (#30: a test or build run through a pipe was
// asked as unknown code):
//
//   - sort and uniq of known command lines (find . -name '*_test.go'
//     -printf 'go test ./%h\n' | sort -u | sh): each line is still one of
//     the lines the template printed, only in another order or once. A
//     line that changes where or how later lines run (cd, pushd, export,
//     set, source) makes the order matter: such text stays unknown.
//   - make -n TARGET | sh prints the recipe make would run and the shell
//     runs it: it is make TARGET, judged as the task runner's run
//     (runmake.go reads the recipe when the makefile is on disk).
//   - cat FILE | sh is sh FILE (shellFileFed in command.go): the same
//     script read the same way, by its name and, on disk, its text.

// reorderedLines: what sort or uniq prints of known command lines.
func reorderedLines(name string, args []string, stdin text) (text, bool) {
	if stdin.from != "" {
		return text{from: stdin.from}, true // fetched or decoded text stays so, in any order
	}
	if !stdin.known || stdin.names {
		return text{}, false
	}
	for _, a := range args {
		if !strings.HasPrefix(a, "-") || a == "-c" || a == "--count" || a == "-o" || strings.HasPrefix(a, "--output") || a == "-m" || a == "--merge" {
			return text{}, false // a file operand, counts or an output file: not the input's lines
		}
	}
	for _, line := range strings.Split(stdin.s, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "cd", "pushd", "popd", "export", "set", "source", ".", "unset", "alias", "shopt":
			return text{}, false // order-dependent: which lines follow it is not on the line
		}
		if strings.Contains(line, "cd ") {
			return text{}, false
		}
	}
	return stdin, true
}

// makeDryRunOutput: the text make -n prints for the shell to run, as the
// make run it stands for ("" when args are not a dry run).
func makeDryRunOutput(args []string) (text, bool) {
	var rest []string
	dry := false
	for _, a := range args {
		switch a {
		case "-n", "--dry-run", "--just-print", "--recon":
			dry = true
			continue
		case "-q", "--question", "-p", "--print-data-base", "-t", "--touch":
			return text{}, false
		}
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a[1:], "n") && strings.Trim(a[1:], "nsikBw") == "" {
			dry = true // make -sn test
			a = "-" + strings.ReplaceAll(a[1:], "n", "")
			if a == "-" {
				continue
			}
		}
		rest = append(rest, a)
	}
	if !dry {
		return text{}, false
	}
	return text{s: strings.TrimSpace("make "+strings.Join(rest, " ")) + "\n", known: true}, true
}

// shellFileFed: c is a shell with no script operand fed one whole file
// the line does not show (cat FILE | sh, sh < FILE): it becomes sh FILE,
// the file named as its script. Returns the file, "" when c is not so fed.
func shellFileFed(c *Cmd, pos []string, stdin *text) string {
	if stdin == nil || stdin.known || stdin.file == "" || !IsShell(c.Name) || len(pos) != 0 || c.Has("-s", "-c", "-i") {
		return ""
	}
	c.Args = append(c.Args, stdin.file)
	c.Pos = append(c.Pos, stdin.file)
	return stdin.file
}
