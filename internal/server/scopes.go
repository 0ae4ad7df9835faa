package server

import (
	"strings"

	"github.com/warden-dev/warden/internal/store"
)

// Scope is the API token scope the route needs, from what the route
// does rather than a column of the table, so a route added later is
// covered by the same rule:
//   - the loopback-only agent control routes: admin;
//   - a webhook that takes a token (/webhook/NAME): webhook:NAME, which
//     tasks and admin tokens cover too;
//   - GET (and HEAD): read;
//   - anything else changes tasks (queue, cancel, approve, deny…): tasks.
//
// Public and Signed routes check no token; for them Scope is only what
// the OpenAPI document shows.
func (r Route) Scope() string {
	switch {
	case r.Access == Loopback:
		return store.ScopeAdmin
	case strings.HasPrefix(r.Path, "/webhook/"):
		return store.ScopeWebhookPrefix + strings.TrimPrefix(r.Path, "/webhook/")
	case r.Method == "GET" || r.Method == "HEAD":
		return store.ScopeRead
	}
	return store.ScopeTasks
}
