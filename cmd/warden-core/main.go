// Command warden-core is warden's engine: the command tree, the hook
// runtime, the store keeper. Users run it as `warden`, the small front
// binary beside it (cmd/warden), which hands hooks to the keeper and runs
// this for everything else.
//
// main is thin on purpose: `hook` goes straight to the hook runtime (no
// command tree is built on that path); everything else goes to the cobra
// tree in internal/cli.
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
