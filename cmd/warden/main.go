// Command warden governs Claude Code through its hooks and status line.
//
// This binary is the front door and stays tiny on purpose: Claude Code
// starts it for every hook event and status line update, and a Go
// program's start-up grows with every package it links. `warden hook` and
// `warden statusline` are handed to the keeper that already holds the
// store open (internal/hookclient); every other command, and what no
// keeper takes, runs in warden-core beside it, which this process becomes
// (exec) rather than waits for. `warden mcp` becomes `warden-helper mcp`,
// the binary that carries the MCP SDK.
package main

import (
	"os"

	"github.com/warden-dev/warden/internal/hookclient"
)

func main() {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "hook":
			os.Exit(hookclient.Hook(os.Args[2:]))
		case "statusline":
			os.Exit(hookclient.Statusline(os.Args[2:]))
		case "mcp":
			os.Exit(hookclient.MCP(os.Args[2:]))
		}
	}
	os.Exit(hookclient.Forward(os.Args[1:]))
}
