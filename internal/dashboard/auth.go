package dashboard

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"

	"github.com/warden-dev/warden/internal/sameorigin"
)

// DefaultCookieName holds the API token the login form took (unless
// Options.CookieName names another). The cookie is HttpOnly (no script
// reads it) and SameSite=Strict (no other site's page sends it); the
// token is checked on every request, so revoking it logs every page out
// and a daemon restart logs none out.
const DefaultCookieName = "warden_token"

// csrfField is the form field (and X-CSRF-Token header) every mutation
// carries.
const csrfField = "csrf"

// token returns the request's token: the cookie, or a bearer header for
// scripts.
func (s *Server) token(r *http.Request) string {
	if c, err := r.Cookie(s.opt.CookieName); err == nil && c.Value != "" {
		return c.Value
	}
	if h := r.Header.Get("Authorization"); strings.HasPrefix(h, "Bearer ") {
		return strings.TrimSpace(strings.TrimPrefix(h, "Bearer "))
	}
	return ""
}

// csrfToken is derived from the API token, so it needs no server-side
// state and survives restarts; a page from another origin can neither read
// it nor compute it.
func csrfToken(tok string) string {
	m := hmac.New(sha256.New, []byte(tok))
	m.Write([]byte("warden dashboard csrf v1"))
	return hex.EncodeToString(m.Sum(nil))
}

// authed reports whether the request carries a valid token, and the token.
func (s *Server) authed(r *http.Request) (string, bool) {
	tok := s.token(r)
	if tok == "" || len(tok) > 512 {
		return "", false
	}
	ok, err := s.opt.CheckToken(r.Context(), tok)
	if err != nil || !ok {
		return "", false
	}
	return tok, true
}

// sameOrigin rejects cross-site requests (internal/sameorigin, the
// reading the API's cookie routes use too). A request with neither
// header (a script, curl) passes here and still needs the CSRF token.
func sameOrigin(r *http.Request) bool { return sameorigin.Check(r) != sameorigin.Cross }

// checkMutation is the guard of every POST: authenticated, same origin and
// the CSRF token of this session.
func (s *Server) checkMutation(w http.ResponseWriter, r *http.Request) (string, bool) {
	tok, ok := s.authed(r)
	if !ok {
		http.Error(w, "not logged in", http.StatusUnauthorized)
		return "", false
	}
	if !sameOrigin(r) {
		http.Error(w, "cross-origin request refused", http.StatusForbidden)
		return "", false
	}
	got := r.Header.Get("X-CSRF-Token")
	if got == "" {
		got = r.PostFormValue(csrfField)
	}
	if subtle.ConstantTimeCompare([]byte(got), []byte(csrfToken(tok))) != 1 {
		http.Error(w, "missing or wrong CSRF token: reload the page", http.StatusForbidden)
		return "", false
	}
	return tok, true
}

// requireLogin wraps a page: without a valid token it sends the browser
// to the login form (which then comes back here) and nothing else. A
// redirect rather than a 401 page: browsers log every 4xx document as a
// console error.
func (s *Server) requireLogin(h func(w http.ResponseWriter, r *http.Request, tok string)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		tok, ok := s.authed(r)
		if !ok {
			w.Header().Set("Cache-Control", "no-store")
			http.Redirect(w, r, "/login?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
			return
		}
		h(w, r, tok)
	}
}

// requireToken wraps a stream or JSON endpoint: 401 without a valid token.
func (s *Server) requireToken(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if _, ok := s.authed(r); !ok {
			http.Error(w, "not logged in", http.StatusUnauthorized)
			return
		}
		h(w, r)
	}
}

func (s *Server) showLogin(w http.ResponseWriter, r *http.Request, status int, msg string) {
	next := safeNext(r.FormValue("next"))
	s.render(w, r, status, "login", page{Title: "Log in", Data: map[string]string{"Next": next, "Error": msg}})
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		s.showLogin(w, r, http.StatusOK, "")
		return
	}
	if !sameOrigin(r) {
		http.Error(w, "cross-origin request refused", http.StatusForbidden)
		return
	}
	tok := strings.TrimSpace(r.PostFormValue("token"))
	ok := false
	if tok != "" && len(tok) <= 512 {
		var err error
		ok, err = s.opt.CheckToken(r.Context(), tok)
		if err != nil {
			ok = false
		}
	}
	if !ok {
		// 200 with the message: the form is the answer (see requireLogin).
		s.showLogin(w, r, http.StatusOK, "That token is not valid. Create one with `warden token create NAME`.")
		return
	}
	http.SetCookie(w, &http.Cookie{Name: s.opt.CookieName, Value: tok, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	http.Redirect(w, r, safeNext(r.PostFormValue("next")), http.StatusSeeOther)
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.checkMutation(w, r); !ok {
		return
	}
	http.SetCookie(w, &http.Cookie{Name: s.opt.CookieName, Value: "", Path: "/", MaxAge: -1, HttpOnly: true,
		SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, "/login", http.StatusSeeOther)
}
