package callfacts

import (
	"strconv"
	"strings"
)

// Directories a build, test or sync tool empties before it writes into
// them (tools.txt empties=): vite build --outDir D --emptyOutDir, pytest
// --basetemp D, hugo -d D --cleanDestinationDir, robocopy SRC D /MIR. D
// is the target of a recursive delete of what it holds, judged by its
// zone like rm -rf D: a project's build directory is everyday work, the
// user's Documents is not.

// emptier is one tools.txt empties= field: the options (or "#N", the Nth
// positional) naming the directory, the flags of which one must be given
// (none: always), and the flags that keep the directory's contents.
type emptier struct {
	opts, when, unless []string
}

// parseEmptier reads OPTS[:WHEN] where WHEN's words starting with ! are
// flags that keep the contents (mkdocs --dirty).
func parseEmptier(v string) *emptier {
	opts, when, _ := strings.Cut(v, ":")
	e := &emptier{opts: strings.Split(opts, ",")}
	if when != "" {
		for _, w := range strings.Split(when, ",") {
			if u, ok := strings.CutPrefix(w, "!"); ok {
				e.unless = append(e.unless, u)
			} else {
				e.when = append(e.when, w)
			}
		}
	}
	return e
}

// hasArg reports whether one of flags is among c's arguments: as an
// option (--emptyOutDir, --emptyOutDir=true) or, for Windows tools whose
// switches start with /, as a word in any case (/MIR, /mir).
func hasArg(c *Cmd, flags []string) bool {
	if c.Has(flags...) {
		return true
	}
	for _, a := range c.Args {
		for _, f := range flags {
			if strings.EqualFold(a, f) || strings.HasPrefix(f, "--") && strings.HasPrefix(a, f+"=") && !strings.EqualFold(a, f+"=false") {
				return true
			}
		}
	}
	return false
}

// EmptiedDirs are the directories c empties before writing into them, as
// written (nil for none): tools.txt empties=.
func EmptiedDirs(c *Cmd) []string {
	e := c.tool().empties
	if e == nil || c.DryRun() || c.Has("--help") || len(e.when) > 0 && !hasArg(c, e.when) || hasArg(c, e.unless) {
		return nil
	}
	var opts []string
	var out []string
	for _, o := range e.opts {
		if n, ok := strings.CutPrefix(o, "#"); ok {
			i, _ := strconv.Atoi(n)
			if pos := windowsPos(c); i >= 1 && i <= len(pos) {
				out = append(out, pos[i-1])
			}
			continue
		}
		opts = append(opts, o)
	}
	return append(out, OptionValues(c.Args, opts)...)
}

// windowsPos are c's positionals without Windows switches (/MIR, /E).
func windowsPos(c *Cmd) []string {
	var out []string
	for _, p := range c.Pos {
		if len(p) > 1 && p[0] == '/' && !strings.Contains(p[1:], "/") && c.Name == "robocopy" {
			continue
		}
		out = append(out, p)
	}
	return out
}

// emptyEffect wraps a program's effect rule: emptying a directory is a
// delete, whatever else the program does.
func emptyEffect(rule effectRule) effectRule {
	return func(c *Cmd) (Effect, string) {
		if d := EmptiedDirs(c); d != nil {
			return EffectDelete, c.Name + " empties " + d[0] + " before writing into it"
		}
		if rule != nil {
			return rule(c)
		}
		return EffectNone, ""
	}
}
