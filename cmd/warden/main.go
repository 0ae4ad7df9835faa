// Command warden governs Claude Code through its hooks and status line.
//
// This binary is the front door and stays tiny on purpose: Claude Code
// starts it for every hook event, and a Go program's start-up grows with
// every package it links. `warden hook` hands the event to the keeper that
// already holds the store open (internal/hookclient); every other command,
// and a hook no keeper takes, runs in warden-core beside it, which this
// process becomes (exec) rather than waits for.
package main

import (
	"os"

	"github.com/warden-dev/warden/internal/hookclient"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "hook" {
		os.Exit(hookclient.Hook(os.Args[2:]))
	}
	os.Exit(hookclient.Forward(os.Args[1:]))
}
