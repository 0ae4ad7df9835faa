package policy

import (
	"path"
	"strings"
)

// rerunOutput: the delete that removes the project folder rel also
// removes files named for a program the line runs after it (rm -rf
// DEFAULT xia2.html xia2.txt && xia2 pipeline=dials …; rm -rf run1
// mytool.log mytool.json; mytool run): the files carry that program's
// name, so what is deleted with them is its last run's output, cleared
// to run it again. The program must run after the delete, and a folder
// git tracks stays the project's (the caller checks trackedDir).
func rerunOutput(e *Env, rel string) bool {
	if sourceDirs[strings.ToLower(rel)] {
		return false // rm -rf src xia2.html: a source folder is the project's, whatever is deleted with it
	}
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c.Name != "rm" || !containsPath(c.Pos, rel) {
			continue
		}
		for _, p := range c.Pos {
			b := path.Base(p)
			stem, ext, ok := strings.Cut(b, ".")
			if !ok || ext == "" || stem == "" || strings.ContainsAny(b, "*?[$`") || len(stem) < 3 {
				continue
			}
			for j := i + 1; j < len(e.F.Commands); j++ {
				n := e.F.Commands[j].Name
				prog, _, _ := strings.Cut(path.Base(n), ".") // phenix.refine writes phenix.log
				if (strings.EqualFold(path.Base(n), stem) || strings.EqualFold(prog, stem)) && !rerunNotProducer[n] {
					return true
				}
			}
		}
	}
	return false
}

// rerunNotProducer: programs that do not write their own output files.
var rerunNotProducer = map[string]bool{"rm": true, "mkdir": true, "echo": true, "cat": true, "ls": true, "cd": true, "touch": true, "git": true}

// containsPath: one of ps names rel (as rel, ./rel or rel/).
func containsPath(ps []string, rel string) bool {
	for _, p := range ps {
		if strings.TrimSuffix(strings.TrimPrefix(p, "./"), "/") == rel {
			return true
		}
	}
	return false
}
