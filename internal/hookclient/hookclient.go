// Package hookclient is all of `warden` that runs before the real work:
// `warden hook` and `warden statusline`, which Claude Code runs all the
// time, are handed to the keeper (internal/hookwire); every other command,
// and what the keeper does not take, runs in warden-core, the binary beside
// it that holds the command tree and the hook runtime.
//
// It imports only the standard library and internal/paths and
// internal/hookwire, so the process Claude Code starts for every hook costs
// what a bare Go program costs (a test checks the import list), and it is
// plain Go: no assembly, no cgo (a test checks there is no .s file).
package hookclient

import (
	"os"

	"github.com/warden-dev/warden/internal/exitcode"
	"github.com/warden-dev/warden/internal/sibling"
)

// CorePath is warden-core beside the running warden, else on PATH
// (internal/sibling).
func CorePath() (string, error) { return sibling.Find(sibling.Core) }

// MCP runs `warden mcp args…`: `warden-helper mcp args…` in place of this
// process, so the MCP server starts without a hop through warden-core.
func MCP(args []string) int {
	bin, err := sibling.Find(sibling.Helper)
	if err != nil {
		say(err.Error())
		return exitcode.Failure
	}
	code, err := run(bin, append([]string{"mcp"}, args...))
	if err != nil {
		say("run " + bin + ": " + err.Error())
		return exitcode.Failure
	}
	return code
}

// Forward runs warden-core with args (a command other than hook) in place
// of this process and returns only when it cannot.
func Forward(args []string) int {
	core, err := CorePath()
	if err != nil {
		say(err.Error())
		return exitcode.Failure
	}
	code, err := run(core, args)
	if err != nil {
		say("run " + core + ": " + err.Error())
		return exitcode.Failure
	}
	return code
}

// Hook runs `warden hook args…`: in the keeper when one answers, else in
// warden-core. It fails open: whatever goes wrong here ends in exit 0 and
// one line on stderr, as the hook runtime itself does.
func Hook(args []string) int {
	return answer(append([]string{"hook"}, args...), func(msg string) { say(msg + "; allowing") })
}

// Statusline runs `warden statusline args…` like Hook: Claude Code runs
// it for every status line update. It never fails and never writes to
// stderr; what went wrong becomes the status line itself.
func Statusline(args []string) int {
	return answer(append([]string{"statusline"}, args...), func(msg string) { os.Stdout.WriteString("warden: " + msg + "\n") })
}

// answer runs args (a command and its arguments) in the keeper, else in
// warden-core; problem reports what stops both.
func answer(args []string, problem func(string)) int {
	if code, ok := viaKeeper(args, problem); ok {
		return code
	}
	core, err := CorePath()
	if err != nil {
		problem(err.Error())
		return 0
	}
	code, err := run(core, args)
	if err != nil {
		problem("run " + core + ": " + err.Error())
		return 0
	}
	return code
}

// say writes one line on stderr. Not fmt: the front links no package it
// can do without (see TestFrontBinaryStaysBare).
func say(msg string) { os.Stderr.WriteString("warden: " + msg + "\n") }
