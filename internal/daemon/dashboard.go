package daemon

import (
	"context"
	"os"

	"github.com/warden-dev/warden/internal/dashboard"
	"github.com/warden-dev/warden/internal/dashboard/apitasks"
	"github.com/warden-dev/warden/internal/dashboard/storesource"
	"github.com/warden-dev/warden/internal/server"
	"github.com/warden-dev/warden/internal/usage"
)

// mountDashboard serves the dashboard at "/" (SPEC.md §9): the store's
// figures through storesource (the event record through p.Reads: in a
// pool, every machine's events from the shared store), tasks through this server's own API (as
// the logged-in user), logins checked against the API tokens and kept in
// the cookie the API accepts too. Everything the sources need from the
// environment is read here, once: the hook server swaps the environment
// per hook.
func mountDashboard(p *Parts) {
	home, _ := os.UserHomeDir()
	cwd, _ := os.Getwd()
	src := storesource.New(p.Store, storesource.Options{WardenHome: p.Options.Home, ProjectDir: cwd,
		UserHome: home, UsageDirs: usage.ConfigDirs(), Activity: p.Reads})
	sources := src.Sources()
	sources.Tasks = apitasks.New(p.Server, cwd)
	d, err := dashboard.New(dashboard.Options{
		CheckToken: func(ctx context.Context, tok string) (bool, error) { return p.Server.TokenValid(ctx, tok), nil },
		CookieName: server.CookieName,
		Sources:    sources,
		Version:    p.Options.Version,
		AttachHint: "warden agent attach {id}",
		Log:        p.Log,
		// In a pool the event pages read the shared store; the footer
		// says so, or that the shared store did not answer.
		EventSource: func() dashboard.EventStoreInfo {
			return dashboard.EventStoreInfo{Name: p.Reads.Source(), Text: p.Reads.Label()}
		},
	})
	if err != nil {
		// Only a broken build gets here (the templates are embedded):
		// the API still serves.
		p.Log.Error("dashboard not served", "err", err)
		return
	}
	// Public: the dashboard answers a missing or wrong token with its own
	// login page (the API's 401 JSON would be no use to a browser).
	p.Server.Mount("/", d, true)
	p.Dashboard = d
}
