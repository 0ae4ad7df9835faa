// Command warden-serve is warden's daemon (`warden serve`) and the
// commands that talk to its API (`warden task …`, `warden serve status`).
// It carries net/http, TLS and the Prometheus client, which the binaries
// Claude Code starts for hooks must not link. Users type `warden serve`;
// warden execs this binary.
package main

import (
	"os"

	"github.com/warden-dev/warden/internal/daemon"
)

func main() { os.Exit(daemon.Main(os.Args[1:], os.Stdout, os.Stderr)) }
