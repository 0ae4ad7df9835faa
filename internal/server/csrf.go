package server

import (
	"net/http"

	"github.com/warden-dev/warden/internal/sameorigin"
)

// Cross-site request forgery: a browser attaches the dashboard's session
// cookie to any request to this host, including a form another site's
// page submits. SameSite=Strict stops that in current browsers; this
// check does not depend on it. A request that changes something and is
// authenticated by the cookie alone (no Authorization header, which no
// browser adds on its own) must come from this origin: Sec-Fetch-Site
// same-origin (or none: typed by the user), else an Origin whose host is
// this request's Host. With neither header it is refused: every browser
// sends one on such requests, and scripts use a bearer token. The
// headers are read by internal/sameorigin, as the dashboard's are.

// cookieMutation reports whether r changes state on the strength of the
// session cookie alone.
func cookieMutation(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return r.Header.Get("Authorization") == ""
}

// refuseCrossSite answers 403 and returns true for a cookie-authenticated
// mutation that does not come from this origin.
func refuseCrossSite(w http.ResponseWriter, r *http.Request) bool {
	if !cookieMutation(r) || sameorigin.Check(r) == sameorigin.Same {
		return false
	}
	writeError(w, http.StatusForbidden, "cross_site",
		"a request that changes something with the session cookie must come from this origin (Origin or Sec-Fetch-Site); scripts send Authorization: Bearer <token>")
	return true
}
