// Command warden-helper carries warden's commands with heavy dependencies,
// so that neither `warden` (which Claude Code starts for every hook) nor
// warden-core (the command tree, the hook runtime, the keeper) links
// them: the daemon and its API clients (`serve`, `task`, `token`: net/http
// servers, TLS, Prometheus, pgx), the MCP server (`mcp`: the MCP SDK), the
// LLM judges' model calls (`judge`: the Anthropic SDK), PostgreSQL (`ship`,
// `store check`, `audit verify --shared`), OAuth usage polling and image
// encoding (`pace poll`, `pace simulate`). Users type `warden …`; warden
// runs or execs this binary with the same arguments. The first argument
// picks the command (internal/helper/cmds); exit codes are
// internal/exitcode's.
package main

import (
	"os"

	"github.com/warden-dev/warden/internal/helper/cmds"
)

func main() { os.Exit(cmds.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
