// Package server is the HTTP side of `warden serve`: the REST API over the
// task queue and the record, bearer-token auth, the loopback-only agent
// routes, health, Prometheus metrics, the OpenAPI document and the
// webhooks. It is built from explicit dependencies (Options) and holds no
// process-wide state; other features mount their handlers on it (the
// dashboard at "/", behind the same token).
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/warden-dev/warden/internal/httpstop"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/storeguard"
	"github.com/warden-dev/warden/internal/task"
	"github.com/warden-dev/warden/internal/tasksvc"
)

// Options are the server's dependencies and settings.
type Options struct {
	// ConfigStatus, when set, says in /health (with a token) which
	// config.toml the daemon applies: its hash, when it was loaded, the
	// last reload refused.
	ConfigStatus func() any
	Tasks        task.Store
	Scheduler    Scheduler
	Tokens       TokenStore
	Deliveries   DeliveryStore
	Events       EventStore
	// EventSource names the store Events reads now ("local", "shared"),
	// shown as /api/events' source; nil: not shown.
	EventSource func() string
	Pace        PaceReader
	Usage       UsageReader
	// Agents is nil until the agents feature provides one.
	Agents   AgentControl
	Webhooks Webhooks
	// QueueSize is how many tasks may wait (429 beyond; default 100).
	QueueSize int
	// System names this daemon (/api/systems, task pins); Owner is its
	// claim owner (system:pid); Version is the build's version.
	System, Owner, Version string
	// Systems lists the pool's workers for /api/systems (nil: this
	// daemon alone).
	Systems SystemLister
	// DBChecks are the parts /health/db reports (default: Events.Check
	// as "store").
	DBChecks []DBCheck
	// Shared is the shared store's state (/health; while it is
	// Waiting, the routes that need it answer 503); nil: none
	// configured.
	Shared func() *SharedState
	// StoreFault is the daemon's latched store fault (nil: none), for
	// /health and /api/systems (storefault.go).
	StoreFault func() *storeguard.Fault
	// BodyLimit caps API request bodies (default 1 MiB; webhooks have
	// their own caps, webhooks.go).
	BodyLimit int64
	Log       *slog.Logger
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Started is when the daemon started (health).
	Started time.Time
}

// Server is the daemon's HTTP handler.
type Server struct {
	o       Options
	mux     *http.ServeMux
	routes  []Route
	metrics *metrics
	// hooks are the webhooks' settings and the parsed
	// webhook.alertmanager_template; SetWebhooks swaps them (a reload).
	hooks atomic.Pointer[webhookConf]
	// root serves paths no route claims ("/": the dashboard, once
	// mounted; a JSON 404 until then).
	root http.Handler
	// touched: when each token's last use was written (a write a minute
	// at most per token).
	touchMu sync.Mutex
	touched map[string]time.Time
	// verified: when each token hash last passed a check against the
	// store, and the token as it was then (the fallback while the store
	// is unreachable; one entry per live token).
	verified map[string]verifiedToken
	// tasks is the queue's rules (internal/tasksvc) every route and
	// webhook that makes or cancels tasks goes through.
	tasks *tasksvc.Service
	// lastPrune: when old webhook deliveries were last pruned
	// (webhook_dedupe.go; under touchMu).
	lastPrune time.Time
}

// New builds the server and its routes.
func New(o Options) (*Server, error) {
	if o.Tasks == nil || o.Scheduler == nil || o.Tokens == nil || o.Events == nil {
		return nil, errors.New("server: tasks, scheduler, tokens and events are required")
	}
	if o.QueueSize <= 0 {
		o.QueueSize = 100
	}
	if o.BodyLimit <= 0 {
		o.BodyLimit = 1 << 20
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Started.IsZero() {
		o.Started = o.Now()
	}
	if o.Webhooks.GitHubLabel == "" {
		o.Webhooks.GitHubLabel = "warden"
	}
	if o.Webhooks.AlertTemplate == "" {
		o.Webhooks.AlertTemplate = "Investigate the firing alert {{.Labels.alertname}}{{with .Annotations.summary}}: {{.}}{{end}}"
	}
	tmpl, err := ParseAlertTemplate(o.Webhooks.AlertTemplate)
	if err != nil {
		return nil, err
	}
	s := &Server{o: o, mux: http.NewServeMux(), touched: map[string]time.Time{}, verified: map[string]verifiedToken{}}
	s.hooks.Store(&webhookConf{Webhooks: o.Webhooks, tmpl: tmpl})
	s.metrics = newMetrics(s)
	s.tasks, err = tasksvc.New(tasksvc.Options{Store: o.Tasks, Scheduler: o.Scheduler, QueueSize: o.QueueSize, Now: o.Now,
		Created:  func(t *task.Task) { s.metrics.created.WithLabelValues(t.Source).Inc() },
		Rejected: func(reason string) { s.metrics.rejected.WithLabelValues(reason).Inc() }})
	if err != nil {
		return nil, err
	}
	for _, r := range s.table() {
		s.add(r)
	}
	// Unknown paths under the API's prefixes answer in the API's shape;
	// "/" stays free for the dashboard (Mount).
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if s.root != nil {
			s.root.ServeHTTP(w, r)
			return
		}
		writeError(w, http.StatusNotFound, "not_found", fmt.Sprintf("no route %s %s; the routes are listed at /api/openapi.json", r.Method, r.URL.Path))
	})
	for _, p := range []string{"/api/", "/internal/", "/webhook/", "/health/"} {
		s.mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			writeError(w, http.StatusNotFound, "not_found", fmt.Sprintf("no route %s %s; the routes are listed at /api/openapi.json", r.Method, r.URL.Path))
		})
	}
	return s, nil
}

// Routes lists the registered routes (the OpenAPI test compares them with
// the document).
func (s *Server) Routes() []Route { return append([]Route(nil), s.routes...) }

// Mount adds a handler for pattern (a ServeMux pattern such as "/" or
// "GET /ui/"), behind the API token (or session cookie) unless public is
// true; a public handler checks access itself (Authorized, TokenValid),
// as a login page must. The dashboard mounts at "/": it gets every path
// no API route claims. Call it before serving.
func (s *Server) Mount(pattern string, h http.Handler, public bool) {
	if !public {
		h = s.RequireAuth(store.ScopeRead, h)
	}
	if pattern == "/" {
		s.root = h
		return
	}
	s.mux.Handle(pattern, h)
}

// ServeHTTP implements http.Handler: metrics and panics are handled
// around the mux.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rw := &statusWriter{ResponseWriter: w, status: 200}
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			s.o.Log.Error("handler panic", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(p))
			if !rw.wrote {
				writeError(rw, http.StatusInternalServerError, "internal", "internal error; see warden logs daemon")
			}
		}
		_, pattern := s.mux.Handler(r)
		s.metrics.observe(r.Method, pattern, rw.status, time.Since(start))
	}()
	s.mux.ServeHTTP(rw, r)
}

// statusWriter remembers the status for metrics and logs; Unwrap lets
// http.ResponseController reach Flush and deadlines (server-sent events).
type statusWriter struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// HTTPServer wraps h with the daemon's timeouts. Streams (server-sent
// events) extend their own write deadline with http.ResponseController.
func HTTPServer(h http.Handler, log *slog.Logger) *http.Server {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// Serve serves hs on ln until ctx ends, then shuts down gracefully:
// no new connections, in-flight requests get up to drain to finish.
func Serve(ctx context.Context, hs *http.Server, ln net.Listener, drain time.Duration, tlsCert, tlsKey string) error {
	// Streams end as the shutdown starts (httpstop), not at the deadline.
	base, stop := httpstop.With(context.Background())
	hs.BaseContext = func(net.Listener) context.Context { return base }
	hs.RegisterOnShutdown(stop)
	errc := make(chan error, 1)
	go func() {
		if tlsCert != "" {
			errc <- hs.ServeTLS(ln, tlsCert, tlsKey)
		} else {
			errc <- hs.Serve(ln)
		}
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), drain)
	defer cancel()
	err := hs.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		hs.Close()
		return fmt.Errorf("requests still running after %v were cut off", drain)
	}
	return err
}
