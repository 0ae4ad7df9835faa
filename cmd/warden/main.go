// Command warden governs Claude Code through its hooks and status line.
//
// main is thin on purpose: `warden hook` goes straight to the hook runtime
// (no command tree is built on the hot path); everything else goes to the
// cobra tree in internal/cli.
package main

import (
	"os"

	"github.com/warden-dev/warden/internal/cli"
	"github.com/warden-dev/warden/internal/hook"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "hook" {
		hook.SpawnKeeper = true
		os.Exit(hook.Main(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
