// Package sameorigin is the one reading of a browser's origin headers
// that every handler changing state on a cookie uses (the API's session
// cookie routes, the dashboard's forms and login), so they cannot
// disagree about what another site's page is.
package sameorigin

import (
	"net/http"
	"net/url"
)

// Verdict is what a request's headers say about where it comes from.
type Verdict int

const (
	// Unknown: neither Sec-Fetch-Site nor Origin. Every current browser
	// sends one on a state-changing request, so this is a script (curl);
	// the caller decides whether another proof (a bearer token, a CSRF
	// token) is needed.
	Unknown Verdict = iota
	// Same: this origin (or typed by the user: Sec-Fetch-Site none).
	Same
	// Cross: another site, a sandboxed page (Origin null), or headers
	// that contradict each other.
	Cross
)

// Check reads Sec-Fetch-Site and Origin. Both are checked when both are
// sent: a same-origin Sec-Fetch-Site does not excuse an Origin naming
// another host, and an Origin must name this request's Host.
func Check(r *http.Request) Verdict {
	site, origin := r.Header.Get("Sec-Fetch-Site"), r.Header.Get("Origin")
	if site != "" && site != "same-origin" && site != "none" {
		return Cross
	}
	if origin != "" {
		u, err := url.Parse(origin)
		if origin == "null" || err != nil || u.Host == "" || u.Host != r.Host {
			return Cross
		}
		return Same
	}
	if site != "" {
		return Same
	}
	return Unknown
}
