package callfacts

import "strings"

// A shell or an interpreter given a script file whose whole name comes
// from a variable the line does not set (bash "$MAINT_SCRIPT", python3
// $JOB, ruby "${TASK}") runs a script nobody can read from the line: not
// its text, not even its name. It is judged as a shell fed unknown text
// (core.indirect:unknown-script asks), as the product's guard section
// says of "a shell reading an unknown script". A name with a known part
// ("$DIR/run_tests.sh", "$VENV/bin/pytest") is read by that part as any
// script is; source and . read settings and are left to their own rules.

// unknownScriptOperand: c is a shell or interpreter whose first operand,
// its script, is wholly an unknown variable's value.
func unknownScriptOperand(c *Cmd) bool {
	if !IsShell(c.Name) && !IsInterpreter(c.Name) || c.Name == "source" || c.Name == "." || len(c.Pos) == 0 {
		return false
	}
	if c.Has("-c", "-e", "-m", "-r", "--eval", "-p", "--print", "-s") {
		return false // code on the line, a module, or the input: not a script file
	}
	if IsShell(c.Name) && c.Has("-n", "--noexec") {
		return false // bash -n "$f": a syntax check, nothing runs
	}
	p := c.Pos[0]
	if IsShell(c.Name) {
		ops := shellOperands(c.Args)
		if len(ops) == 0 {
			return false
		}
		p = ops[0]
	}
	if p == "$0" || p == "$@" || p == "$*" {
		return false
	}
	return UnknownValue(p) && strings.TrimSpace(UnknownParts(p)) == ""
}
