package server

import (
	"context"
	"errors"
	"fmt"
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

// TokenValid reports whether raw is a live API token that may at least
// read (the dashboard's login; a webhook:NAME token may not log in).
func (s *Server) TokenValid(ctx context.Context, raw string) bool {
	t, _ := s.token(ctx, raw)
	return t != nil && t.Allows(store.ScopeRead)
}

// token finds the live API token raw (and notes its use); nil and why
// not when it is none: unknown or revoked, or expired.
func (s *Server) token(ctx context.Context, raw string) (*store.APIToken, string) {
	const unknown = "invalid or revoked token; create one with `warden token create`"
	if !strings.HasPrefix(raw, store.APITokenPrefix) || len(raw) > 200 {
		return nil, unknown
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
		v, seen := s.verified[hash]
		s.touchMu.Unlock()
		ok := seen && now.Sub(v.at) <= StaleAuth && !v.tok.Expired(now)
		s.o.Log.Error("token lookup", "err", err, "accepted_from_recent_check", ok)
		if !ok {
			return nil, unknown
		}
		return &v.tok, ""
	}
	if t == nil {
		return nil, unknown
	}
	if t.Expired(now) {
		return nil, fmt.Sprintf("token %s (%s) expired at %s; create a new one with `warden token create NAME --scope %s --expires 30d`",
			t.ID, t.Name, t.Expires.UTC().Format(time.RFC3339), t.EffectiveScope())
	}
	s.touchMu.Lock()
	s.verified[hash] = verifiedToken{at: now, tok: *t}
	due := now.Sub(s.touched[t.ID]) > time.Minute
	if due {
		s.touched[t.ID] = now
	}
	s.touchMu.Unlock()
	if due {
		_ = s.o.Tokens.TouchToken(ctx, t.ID, now)
	}
	return t, ""
}

// verifiedToken is a token as its last successful check found it.
type verifiedToken struct {
	at  time.Time
	tok store.APIToken
}

// requestToken is r's API token: "Authorization: Bearer …" or the
// dashboard's session cookie; nil and why not when none is live.
func (s *Server) requestToken(r *http.Request) (*store.APIToken, string) {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, tok, ok := strings.Cut(h, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") {
			return nil, "the Authorization header is not \"Bearer <token>\""
		}
		return s.token(r.Context(), strings.TrimSpace(tok))
	}
	if c, err := r.Cookie(CookieName); err == nil {
		return s.token(r.Context(), c.Value)
	}
	return nil, "missing token; send Authorization: Bearer <token> (create one with `warden token create`)"
}

// Authorized reports whether r carries a live token that may read.
func (s *Server) Authorized(r *http.Request) bool {
	t, _ := s.requestToken(r)
	return t != nil && t.Allows(store.ScopeRead)
}

// RequireAuth answers 401 unless the request carries a live token, 403
// unless its scope covers need (scopes.go says what each route needs).
func (s *Server) RequireAuth(need string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t, why := s.requestToken(r)
		if t == nil {
			w.Header().Set("WWW-Authenticate", `Bearer realm="warden"`)
			if st := s.sharedState(); st != nil && st.State == Waiting {
				why += " (the shared store " + st.Where + " is not reachable yet: until it answers only this machine's tokens are accepted, such as the local CLI's)"
			}
			writeError(w, http.StatusUnauthorized, "unauthorized", why)
			return
		}
		if !t.Allows(need) {
			s.o.Log.Warn("token scope refused", "token", t.ID, "scope", t.EffectiveScope(), "method", r.Method, "path", r.URL.Path)
			w.Header().Set("WWW-Authenticate", `Bearer realm="warden", error="insufficient_scope", scope="`+need+`"`)
			writeError(w, http.StatusForbidden, "insufficient_scope", fmt.Sprintf("token %s (%s) has scope %s; %s %s needs %s (create one with `warden token create NAME --scope %s`)",
				t.ID, t.Name, t.EffectiveScope(), r.Method, r.URL.Path, need, need))
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

// Allow says, in the API's words, why the live token raw may not act on
// the task queue with scope (nil: it may): the check the API's routes
// make, for callers of TaskService that are not HTTP requests to it (the
// dashboard, in process), including the 503 of a shared store that has
// not answered yet.
func (s *Server) Allow(ctx context.Context, raw, scope string) error {
	t, why := s.token(ctx, raw)
	if t == nil {
		return errors.New(why)
	}
	if !t.Allows(scope) {
		return fmt.Errorf("token %s (%s) has scope %s; this needs %s (create one with `warden token create NAME --scope %s`)",
			t.ID, t.Name, t.EffectiveScope(), scope, scope)
	}
	if msg := s.sharedWaiting(); msg != "" {
		return errors.New(msg)
	}
	return nil
}
