package cli

import (
	"github.com/spf13/cobra"
)

// The daemon and the commands that talk to its API (internal/daemon) run
// in warden-helper: they need net/http, which warden-core never links.

// newServeCmd is `warden serve [status]`: `warden-helper serve` replaces
// this process (same pid, so a service manager's signals reach the daemon).
func newServeCmd() *cobra.Command {
	c := helperCmd("serve [status] [--addr 127.0.0.1:8765] …", "Run the daemon: hooks, task queue, scheduler, REST API, webhooks, metrics", "serve")
	c.RunE = execHelper("serve")
	return c
}

// newTaskCmd is `warden task add|list|show|cancel|approve|deny|diff|…`, over
// the daemon's API and this machine's agents; prune works on the store.
func newTaskCmd() *cobra.Command {
	return helperCmd("task add|list|show|cancel|approve|deny|diff|reply|merge|prune", "Queue, list, inspect and cancel the daemon's tasks; answer a waiting agent; see a task's diff; prune finished ones", "task")
}
