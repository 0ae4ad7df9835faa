// Package exitcode is warden's one map from a command's error to its exit
// code, shared by every dispatcher in the three binaries (warden-core's
// command tree, warden-helper's, the front's own failures). The codes
// are documented in docs/commands.md ("Exit codes"); a test there checks
// the table against these constants.
//
// Hooks are not commands: `warden hook` answers Claude Code in its own
// protocol (exit 0, or 2 with the reason on stderr) and never uses Of.
//
// The front links this package, so it imports only errors, io and
// strconv (internal/hookclient's deps test checks the list).
package exitcode

import (
	"errors"
	"io"
	"strconv"
)

// The exit codes of warden's commands.
const (
	// OK: the command did what was asked.
	OK = 0
	// Failure: the command failed or found a problem (doctor's ERR,
	// config check, policy test, store check, audit verify); stderr or
	// the command's output says which.
	Failure = 1
	// Usage: the arguments were wrong and nothing ran (the helper's
	// judge and mcp entry points; cobra's own errors stay Failure).
	Usage = 2
	// No: a status question answered no — the daemon is not running
	// (`serve status`, `task …`), the service is not installed
	// (`service status`), the newest agent handoff is blocked (`handoff
	// check`). Scripts branch on it without parsing text.
	No = 3
)

// Error ends a command with Code and no message of its own: what the
// command printed already says why.
type Error struct{ Code int }

func (e Error) Error() string { return "exit status " + strconv.Itoa(e.Code) }

// coded is an error with its own message and exit code.
type coded struct {
	code int
	err  error
}

func (c *coded) Error() string { return c.err.Error() }
func (c *coded) Unwrap() error { return c.err }

// With makes err end a command with code (its message is still printed):
// daemon.ErrNotRunning is With(No, …).
func With(code int, err error) error { return &coded{code, err} }

// Of is the exit code for err: OK for nil, the code an Error or With
// carries (the outermost one), Failure for any other error.
func Of(err error) int {
	if err == nil {
		return OK
	}
	var e Error
	var c *coded
	switch {
	case errors.As(err, &e):
		return e.Code
	case errors.As(err, &c):
		return c.code
	}
	return Failure
}

// Silent reports whether err carries a code only (an Error): nothing more
// is to be printed.
func Silent(err error) bool {
	var e Error
	return errors.As(err, &e)
}

// Report prints err on stderr as "warden: …" unless it is Silent, and
// returns its exit code: every dispatcher's last line.
func Report(stderr io.Writer, err error) int {
	if err != nil && !Silent(err) {
		io.WriteString(stderr, "warden: "+err.Error()+"\n")
	}
	return Of(err)
}
