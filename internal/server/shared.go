package server

import (
	"net/http"
	"strings"
	"time"
)

// A pool's daemon serves at once, even while its shared PostgreSQL store
// (the task queue, the API's tokens, webhook deliveries, the systems
// registry) does not answer yet: the record and the dashboard read the
// local store meanwhile. What only the shared store may hold waits: the
// routes below answer 503 shared_store_waiting until it answers, so no
// task is queued, claimed or cancelled in a local queue that the pool
// would never see.

// SharedState is what /health says of the shared store.
type SharedState struct {
	// State is "up" or "waiting" (configured, not reachable yet).
	State string `json:"state"`
	// Where is host:port/database, never the password.
	Where string `json:"where"`
	// Error is the last failure while waiting; Permanent says retrying
	// will not mend it (a refused login, a missing database): someone
	// must fix store.url / WARDEN_DATABASE_URL or the server.
	Error     string `json:"error,omitempty"`
	Permanent bool   `json:"permanent,omitempty"`
	// Since is when the daemon started waiting, or when it came up.
	Since time.Time `json:"since"`
	// Waiting lists what does not run until the shared store answers.
	Waiting []string `json:"waiting,omitempty"`
}

// Waiting is the shared store's state name while it does not answer.
const Waiting = "waiting"

// sharedRoutes are the path prefixes of the routes that need the shared
// store: the task queue, the pool's workers, agents (their tasks) and the
// webhooks (they queue tasks).
var sharedRoutes = []string{"/api/tasks", "/api/systems", "/api/agents", "/api/projects", "/internal/", "/webhook/"}

func needsShared(path string) bool {
	for _, p := range sharedRoutes {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

// sharedState is the shared store's state now; nil when none is
// configured.
func (s *Server) sharedState() *SharedState {
	if s.o.Shared == nil {
		return nil
	}
	return s.o.Shared()
}

// sharedWaiting says why the queue is not served while the shared store
// is waiting; "" otherwise.
func (s *Server) sharedWaiting() string {
	st := s.sharedState()
	if st == nil || st.State != Waiting {
		return ""
	}
	msg := "the shared store " + st.Where + " (store.url / WARDEN_DATABASE_URL) is not reachable yet"
	if st.Error != "" {
		msg += ": " + st.Error
	}
	return msg + "; the task queue, the scheduler and webhooks wait for it (this machine's events and the dashboard are served from the local store meanwhile)"
}

// requireShared answers 503 (with Retry-After) while the shared store is
// waiting, naming it and the last error.
func (s *Server) requireShared(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if msg := s.sharedWaiting(); msg != "" {
			w.Header().Set("Retry-After", "5")
			writeError(w, http.StatusServiceUnavailable, "shared_store_waiting", msg)
			return
		}
		h.ServeHTTP(w, r)
	})
}
