// Command warden-helper runs warden's rare, heavy commands (OAuth usage
// polling, pace simulate, LLM judges) so that `warden`, which Claude Code
// starts for every hook event, never links their packages. Users run
// `warden …`; warden execs this binary when needed.
package main

import (
	"os"

	"github.com/warden-dev/warden/internal/helper/cmds"
)

func main() { os.Exit(cmds.Main(os.Args[1:])) }
