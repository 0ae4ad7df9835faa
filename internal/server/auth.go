package server

import (
	"context"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// CookieName is the dashboard's session cookie: it carries an API token,
// HttpOnly and SameSite=Strict, set by the dashboard's login form.
const CookieName = "warden_session"

// StaleAuth is how long a token's last successful check vouches for it
// while the token store cannot be reached.
const StaleAuth = 10 * time.Minute

// TokenValid reports whether raw is a live API token (and notes its use).
func (s *Server) TokenValid(ctx context.Context, raw string) bool {
	if !strings.HasPrefix(raw, store.APITokenPrefix) || len(raw) > 200 {
		return false
	}
	hash := store.HashAPIToken(raw)
	now := s.o.Now()
	t, err := s.o.Tokens.TokenByHash(ctx, hash)
	if err != nil {
		// The token store is unreachable (a pool's PostgreSQL is down):
		// a token this server verified within StaleAuth still passes, so
		// /health/db can say what is down. Revocation takes effect as
		// soon as the store answers again.
		s.touchMu.Lock()
		ok := now.Sub(s.verified[hash]) <= StaleAuth
		s.touchMu.Unlock()
		s.o.Log.Error("token lookup", "err", err, "accepted_from_recent_check", ok)
		return ok
	}
	if t == nil {
		return false
	}
	s.touchMu.Lock()
	s.verified[hash] = now
	due := now.Sub(s.touched[t.ID]) > time.Minute
	if due {
		s.touched[t.ID] = now
	}
	s.touchMu.Unlock()
	if due {
		_ = s.o.Tokens.TouchToken(ctx, t.ID, now)
	}
	return true
}

// Authorized reports whether r carries a live token: "Authorization:
// Bearer …" or the dashboard's session cookie.
func (s *Server) Authorized(r *http.Request) bool {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, tok, ok := strings.Cut(h, " ")
		return ok && strings.EqualFold(scheme, "Bearer") && s.TokenValid(r.Context(), strings.TrimSpace(tok))
	}
	if c, err := r.Cookie(CookieName); err == nil {
		return s.TokenValid(r.Context(), c.Value)
	}
	return false
}

// RequireAuth answers 401 unless the request is Authorized.
func (s *Server) RequireAuth(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.Authorized(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="warden"`)
			msg := "missing token; send Authorization: Bearer <token> (create one with `warden token create`)"
			if r.Header.Get("Authorization") != "" {
				msg = "invalid or revoked token; create one with `warden token create`"
			}
			if st := s.sharedState(); st != nil && st.State == Waiting {
				msg += " (the shared store " + st.Where + " is not reachable yet: until it answers only this machine's tokens are accepted, such as the local CLI's)"
			}
			writeError(w, http.StatusUnauthorized, "unauthorized", msg)
			return
		}
		if refuseCrossSite(w, r) { // csrf.go
			return
		}
		h.ServeHTTP(w, r)
	})
}

// requireLoopback answers 403 to a request that did not come from this
// machine.
func (s *Server) requireLoopback(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !FromLoopback(r) {
			writeError(w, http.StatusForbidden, "forbidden", "this route answers only connections from this machine")
			return
		}
		h.ServeHTTP(w, r)
	})
}

// FromLoopback reports whether the request's peer is a loopback address.
func FromLoopback(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
