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
	"errors"
	"os"
	"path/filepath"
)

// CoreName is the binary that does the work, installed next to warden.
const CoreName = "warden-core"

// CorePath is warden-core next to the running warden (symlinks resolved,
// so a link to the installed warden finds its warden-core), else the first
// on PATH: `go install …/cmd/...@latest` puts all the binaries in GOBIN,
// which is on PATH, and a packager may split them across directories.
func CorePath() (string, error) { return siblingPath(CoreName) }

// MCPName is the MCP server's binary (`warden mcp`): a binary of its own
// so the MCP SDK is linked into neither this front nor warden-core.
const MCPName = "warden-mcp"

// siblingPath is the binary name next to the running warden, else on PATH.
func siblingPath(name string) (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", errors.New("cannot find the running warden: " + err.Error())
	}
	if real, err := filepath.EvalSymlinks(self); err == nil {
		self = real
	}
	p := filepath.Join(filepath.Dir(self), name)
	if isFile(p) {
		return p, nil
	}
	if p := onPath(name); p != "" {
		return p, nil
	}
	return "", errors.New(name + " is missing next to " + self + " and on PATH; build them with `make build`, or reinstall with `make install`")
}

// MCP runs `warden mcp args…`: warden-mcp in place of this process.
func MCP(args []string) int {
	bin, err := siblingPath(MCPName)
	if err != nil {
		say(err.Error())
		return 1
	}
	code, err := run(bin, args)
	if err != nil {
		say("run " + bin + ": " + err.Error())
		return 1
	}
	return code
}

// onPath is exec.LookPath without os/exec (which the front does not link):
// the first executable file called name in a PATH directory.
func onPath(name string) string {
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // "" and relative entries mean the working directory: not for a hook
		}
		if p := filepath.Join(dir, name); isFile(p) {
			return p
		}
	}
	return ""
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode().Perm()&0o111 != 0
}

// Forward runs warden-core with args (a command other than hook) in place
// of this process and returns only when it cannot.
func Forward(args []string) int {
	core, err := CorePath()
	if err != nil {
		say(err.Error())
		return 1
	}
	code, err := run(core, args)
	if err != nil {
		say("run " + core + ": " + err.Error())
		return 1
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
