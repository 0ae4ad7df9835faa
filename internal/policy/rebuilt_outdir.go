package policy

import (
	"strings"
)

// A top-level directory the line deletes and then names as the output
// directory of a later program (rm -rf fab/ && kibot -c x.yaml -d fab,
// rm -rf html && doxygen-like -o html, rm -rf "$OUT" && tool --outdir
// "$OUT"): that program writes it again, so it is the tool's output
// whatever its name, as build/ or dist/ are. A directory git tracks
// files in stays the project's (the caller asks).

// outDirOpts are options that name the directory a program writes into.
var outDirOpts = map[string]bool{"-d": true, "-o": true, "-O": true, "--out": true, "--output": true, "--outdir": true, "--out-dir": true, "--output-dir": true,
	"--output-directory": true, "--outputdir": true, "--dest": true, "--destination": true, "--build-dir": true, "--builddir": true, "--target-dir": true, "--dist-dir": true, "--site-dir": true}

// rebuiltByOutputOption: rel, a top-level directory of the project, is
// the value of an output-directory option of a command of the line other
// than a delete.
func rebuiltByOutputOption(e *Env, rel string) bool {
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		switch c.Name {
		case "rm", "rmdir", "rimraf", "trash", "trash-put", "find", "mv", "cp", "rsync", "ln", "tar", "git":
			continue
		}
		for _, v := range c.OptValues(outDirOpts) {
			if v = strings.TrimSuffix(strings.TrimPrefix(v, "./"), "/"); v == "" {
				continue
			}
			if v == rel || e.abs(c, v) == e.F.Project+"/"+rel {
				return true
			}
		}
	}
	return false
}
