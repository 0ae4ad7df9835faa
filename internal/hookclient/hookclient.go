// Package hookclient is all of `warden` that runs before the real work:
// `warden hook` hands the event to the keeper (internal/hookwire) and every
// other command, and a hook the keeper cannot take, run in warden-core, the
// binary beside it that holds the command tree and the hook runtime.
//
// It imports only the standard library and internal/paths and
// internal/hookwire, so the process Claude Code starts for every hook costs
// what a bare Go program costs (a test checks the import list).
package hookclient

import (
	"fmt"
	"os"
	"path/filepath"
)

// CoreName is the binary that does the work, installed next to warden.
const CoreName = "warden-core"

// CorePath is warden-core next to the running warden (symlinks resolved,
// so a link to the installed warden finds its warden-core).
func CorePath() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find the running warden: %v", err)
	}
	if real, err := filepath.EvalSymlinks(self); err == nil {
		self = real
	}
	core := filepath.Join(filepath.Dir(self), CoreName)
	if fi, err := os.Stat(core); err != nil || fi.IsDir() {
		return "", fmt.Errorf("%s is missing next to %s; build both with `make build`, or reinstall with `make install`", CoreName, self)
	}
	return core, nil
}

// Forward runs warden-core with args (a command other than hook) in place
// of this process and returns only when it cannot.
func Forward(args []string) int {
	core, err := CorePath()
	if err != nil {
		fmt.Fprintf(os.Stderr, "warden: %v\n", err)
		return 1
	}
	code, err := run(core, args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "warden: run %s: %v\n", core, err)
		return 1
	}
	return code
}

// Hook runs `warden hook args…`: in the keeper when one answers, else in
// warden-core. It fails open: whatever goes wrong here ends in exit 0 and
// one line on stderr, as the hook runtime itself does.
func Hook(args []string) int {
	if code, ok := viaKeeper(args); ok {
		return code
	}
	core, err := CorePath()
	if err != nil {
		fmt.Fprintf(os.Stderr, "warden: %v; allowing\n", err)
		return 0
	}
	code, err := run(core, append([]string{"hook"}, args...))
	if err != nil {
		fmt.Fprintf(os.Stderr, "warden: run %s: %v; allowing\n", core, err)
		return 0
	}
	return code
}

// keeperOff is the hook runtime's own switch (internal/store/keeper):
// with it, hooks neither start a keeper nor ask one.
func keeperOff() bool {
	switch os.Getenv("WARDEN_KEEPER") {
	case "off", "0", "false", "no":
		return true
	}
	return false
}
