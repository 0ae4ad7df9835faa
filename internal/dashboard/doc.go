// Package dashboard is warden's web dashboard (SPEC.md §9): server-rendered
// pages over the store — overview with both quota windows charted, live
// events over server-sent events, decisions, judgements, the tasks board,
// usage and the effective settings — with a little plain JavaScript.
//
// Templates and assets are embedded (go:embed); nothing is fetched at run
// time and the Content-Security-Policy allows only this origin. The data
// comes through the small interfaces in source.go, so the handler does not
// know SQLite, pacing or the orchestrator: internal/dashboard/storesource
// implements them over the real store, and `warden serve` mounts the
// handler at "/" with its own token check and task store.
//
// Access: a login form takes an API token and sets it as an HttpOnly,
// SameSite=Strict cookie; every page and stream checks it on every request
// (so a daemon restart does not log an open page out), and mutations also
// need a CSRF token derived from it and a same-origin request.
package dashboard
