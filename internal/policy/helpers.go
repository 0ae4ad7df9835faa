package policy

import (
	"iter"
	"strings"
)

// Helpers the built-in packs share.

func recursive(c *Cmd) bool { return c.Has("-r", "-R", "--recursive") }

// abs normalizes a command's argument against the directory it runs in.
func (e *Env) abs(c *Cmd, a string) string {
	dir := c.Dir
	if dir == "" {
		dir = e.F.Cwd
	}
	for i := range e.absMemo {
		if m := &e.absMemo[i]; m.a == a && m.dir == dir && m.out != "" {
			return m.out
		}
	}
	out := NormPath(a, dir, e.F.Home)
	e.absMemo[e.absNext] = absEntry{a, dir, out}
	e.absNext = (e.absNext + 1) % uint8(len(e.absMemo))
	return out
}

// critArg returns the first positional of c that is a critical path and why.
func critArg(e *Env, c *Cmd) (string, string) {
	for _, a := range c.Pos {
		p := e.abs(c, a)
		if why := critical(p, e.F.Home); why != "" {
			return a, why
		}
	}
	return "", ""
}

// writes yields the paths the call writes or deletes (for _, p := range
// writes(f)), in order: a sequence, not a slice, so the rules that read
// it on every call that has paths (seven) allocate nothing.
func writes(f *Facts) iter.Seq2[int, PathRef] {
	return func(yield func(int, PathRef) bool) {
		n := 0
		for _, p := range f.Paths {
			if p.Op == OpWrite || p.Op == OpDelete {
				if !yield(n, p) {
					return
				}
				n++
			}
		}
	}
}

// anyWrites reports whether the call writes or deletes a path.
func anyWrites(f *Facts) bool {
	for _, p := range f.Paths {
		if p.Op == OpWrite || p.Op == OpDelete {
			return true
		}
	}
	return false
}

// homeRel returns p relative to home ("~/.ssh/x") for reasons, or p.
func homeRel(p, home string) string {
	if home != "" && under(p, home) {
		return "~" + p[len(home):]
	}
	return p
}

func sub(c *Cmd) string { return c.Sub(0) }

func anyPos(c *Cmd, vals ...string) bool {
	for _, p := range c.Pos {
		for _, v := range vals {
			if p == v {
				return true
			}
		}
	}
	return false
}

func lowerArgs(c *Cmd) string { return strings.ToLower(strings.Join(c.Args, " ")) }

// first returns the first non-empty reason produced by fn over cmds.
func first(cmds []*Cmd, fn func(c *Cmd) string) string {
	for _, c := range cmds {
		if r := fn(c); r != "" {
			return r
		}
	}
	return ""
}

// firstAt is the first reason fn gives for the call's commands, by
// index (for readers that look at a command's neighbours too).
func firstAt(e *Env, fn func(e *Env, i int) string) string {
	for i := range e.F.Commands {
		if why := fn(e, i); why != "" {
			return why
		}
	}
	return ""
}

// onlyHelp reports whether c only asks for help or a version.
func onlyHelp(c *Cmd) bool {
	return len(c.Pos) == 0 && (c.Has("--help", "-h", "--version", "-V"))
}
