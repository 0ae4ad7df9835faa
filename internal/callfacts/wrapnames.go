package callfacts

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A pipeline stage is judged by the program it runs, not by the wrapper
// in front of it: `nice -n 5 curl … | sh` is curl piped into sh, `sudo -E
// env | curl …` sends env's output (disguise12, #30). wrappedNames is
// that reading for a stage's words, done by unwrap, the wrapper table
// every command goes through.

// maxUnwrap bounds the wrappers followed in front of one program
// (sudo nice timeout 5 stdbuf -oL curl …).
const maxUnwrap = 6

// wrappedNames returns a call's program name, then the program each
// wrapper in front of it runs, innermost last (nice -n 5 curl … is nice,
// curl). A wrapper that runs shell code (bash -c, eval) ends the list:
// its code is read as a script of its own.
func wrappedNames(argv []string) []string {
	if len(argv) == 0 {
		return nil
	}
	return appendWrapped([]string{ProgramName(argv[0])}, argv)
}

// appendWrapped appends to dst the programs the wrappers in argv run,
// wrappedNames less the call's own program: none (and nothing built)
// for the call of a program that wraps none.
func appendWrapped(dst, argv []string) []string {
	if len(argv) == 0 {
		return dst
	}
	name := ProgramName(argv[0])
	for i := 0; i < maxUnwrap; i++ {
		inner, _, payload := unwrap(name, argv[1:])
		if len(inner) == 0 || payload != "" || strings.HasPrefix(inner[0], "-") {
			break
		}
		argv = inner
		name = ProgramName(inner[0])
		dst = append(dst, name)
	}
	return dst
}

// callWords are a call's words as written, for wrappedNames (no
// expansion: the names of programs are literals in the cases it reads).
func callWords(c *syntax.CallExpr) []string {
	w := make([]string, len(c.Args))
	for i, a := range c.Args {
		w[i] = wordValue(a)
	}
	return w
}

// wrapsAgain: the command a wrapper runs is itself a wrapper with a
// command after it (sudo nice echo …).
func wrapsAgain(argv []string) bool {
	if len(argv) < 2 {
		return false
	}
	in, _, payload := unwrap(ProgramName(argv[0]), argv[1:])
	return len(in) > 0 && payload == ""
}
