// Package daemon is `warden serve`: one resident process that holds the
// store (it takes the keeper's lock and socket and answers hooks and the
// status line as the keeper does), runs the scheduler and serves the HTTP
// API. It lives in its own binary, warden-helper (serve), so net/http and the
// Prometheus client never load into the process Claude Code starts for a
// hook.
package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/dashboard"
	"github.com/warden-dev/warden/internal/notify"
	"github.com/warden-dev/warden/internal/orchestrator"
	"github.com/warden-dev/warden/internal/pool"
	"github.com/warden-dev/warden/internal/server"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/keeper"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/storeguard"
)

// Options configure Run. Paths are resolved once, at start-up: the hook
// server swaps the process environment per hook, so nothing may look up
// WARDEN_HOME or HOME later.
type Options struct {
	Home, DB, Lock, Socket string
	LogPath                string
	StatePath, TokenPath   string
	TaskDir                string
	// Addr overrides serve.addr; TLS files override serve.tls_*.
	Addr, TLSCert, TLSKey string
	// InsecurePublic allows a non-loopback address without TLS.
	InsecurePublic bool
	Config         *config.Config
	// Env is the environment agents get (captured at start-up).
	Env     []string
	Version string
	// LogTo, when set, also gets every log record (tests, --log-stderr).
	LogTo io.Writer
	// Stderr gets the few lines a user must see at once (the shared
	// store unreachable); nil: discarded.
	Stderr io.Writer
	// DatabaseURL is the shared PostgreSQL store (WARDEN_DATABASE_URL or
	// store.url); "" keeps everything in the local SQLite store.
	DatabaseURL string
	// Ready is called with the listening address once the API answers.
	Ready func(addr string)
	// ConfigPath is the config.toml Config came from: reloaded on SIGHUP
	// and when it changes ("": never reloaded).
	ConfigPath string
	// BaseURL is where the API answers (set once it listens).
	BaseURL string
	// NewStore accepts a store other than the one the daemon last ran on
	// (missing, or replaced by a new one: storemark.go).
	NewStore bool

	live     *liveConfig      // the config in force (reload.go)
	notifier *notify.Notifier // a waiting agent's notices
}

// Parts are the daemon's pieces, built in Run; extend.go lets other
// features add runners, agent control and handlers to them.
type Parts struct {
	// Store is the local SQLite store: hooks, events, session state,
	// agents, the usage cache, the quota hold. Shared is the queue,
	// tokens, deliveries and the pacing ledger: Store itself when alone,
	// PostgreSQL in a pool.
	Store  *sqlite.Store
	Shared store.Shared
	// Reads is where the dashboard and the API read the event record:
	// the shared store while it answers, else Store.
	Reads    *eventReads
	Registry pool.Registry
	// DBChecks are what /health/db reports; extendRunners may add to
	// them (the spool's backlog) before the server is built.
	DBChecks  []server.DBCheck
	Runners   map[string]agent.Runner
	Default   string // the runner of tasks that name none ("" = headless)
	Agents    server.AgentControl
	Scheduler *orchestrator.Scheduler
	Server    *server.Server
	// Dashboard is the dashboard mounted on Server (nil: not served).
	Dashboard *dashboard.Server
	Options   *Options
	Log       *slog.Logger
	// Guard latches the store's first failed write (storeguard.go).
	Guard *storeguard.Guard
}

// CheckAddr refuses a non-loopback address unless TLS is configured or
// insecure is set; it names the fix.
func CheckAddr(addr, cert, key string, insecure bool) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return fmt.Errorf("address %q: want HOST:PORT such as 127.0.0.1:8765", addr)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	if (cert == "") != (key == "") {
		return errors.New("give both serve.tls_cert and serve.tls_key (or --tls-cert and --tls-key)")
	}
	if cert != "" || insecure {
		return nil
	}
	return fmt.Errorf("address %s is reachable from other machines; give --tls-cert and --tls-key (serve.tls_cert, serve.tls_key), or type --insecure-public to serve plain HTTP anyway", addr)
}

// Run runs the daemon until ctx ends. It takes the keeper lock (stopping
// an on-demand keeper that holds it), so while it runs it is the keeper.
func Run(ctx context.Context, o Options) error {
	cfg := o.Config
	if o.Addr == "" {
		o.Addr = cfg.Serve.Addr
	}
	if o.TLSCert == "" && o.TLSKey == "" {
		o.TLSCert, o.TLSKey = cfg.Serve.TLSCert, cfg.Serve.TLSKey
	}
	if err := CheckAddr(o.Addr, o.TLSCert, o.TLSKey, o.InsecurePublic); err != nil {
		return err
	}
	if o.DatabaseURL != "" {
		if err := checkURL(o.DatabaseURL); err != nil {
			return err
		}
	}
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	lf, err := openRotating(o.LogPath, 10<<20, 3)
	if err != nil {
		return err
	}
	defer lf.Close()
	var w io.Writer = lf
	if o.LogTo != nil {
		w = teeWriter{lf, o.LogTo} // storeguard.go: stderr even when the file refuses
	}
	log := slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: slog.LevelInfo}))

	// Never a new empty store in place of one that held tasks and tokens
	// without saying so (storemark.go).
	if err := checkStoreMark(ctx, o.StatePath, o.DB, o.NewStore); err != nil {
		log.Error("refusing to start", "err", err)
		return err
	}
	// A keeper never creates the store; the daemon does, like a hook.
	st, err := sqlite.Open(ctx, o.DB)
	if err != nil {
		return err
	}
	st.Close()

	if running, _ := keeper.Running(o.Lock); running {
		if pid := daemonPID(o.StatePath); pid > 0 {
			return fmt.Errorf("warden serve already runs (pid %d); stop it first", pid)
		}
		// serve.json may be gone (removed by hand): the lock says whether
		// its holder is a daemon, which must not be stopped like a keeper.
		if pid, role, err := keeper.Holder(o.Lock); err == nil && role == keeper.RoleServe {
			return fmt.Errorf("warden serve already runs (pid %d, holding %s; its %s is missing and is written again within %v); stop it first", pid, o.Lock, o.StatePath, stateCheckEvery)
		}
		log.Info("stopping the on-demand keeper to take the store over")
		if err := keeper.Stop(o.Lock, 10*time.Second); err != nil {
			return fmt.Errorf("take over from the keeper: %w", err)
		}
	}
	dctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var serveErr error
	var once sync.Once
	err = keeper.Run(dctx, keeper.Options{
		DBPath: o.DB, LockPath: o.Lock,
		Idle: 100 * 365 * 24 * time.Hour, // a daemon does not leave when idle
		Role: keeper.RoleServe,
		Serve: func(kctx context.Context) error {
			err := serve(kctx, &o, log)
			once.Do(func() { serveErr = err })
			cancel() // the daemon ends with its services
			return err
		},
	})
	if errors.Is(err, keeper.ErrRunning) {
		return errors.New("another process took the store's keeper lock first; try again")
	}
	if serveErr != nil && !errors.Is(serveErr, context.Canceled) {
		log.Error("daemon stopped", "err", serveErr)
		return serveErr
	}
	if err != nil {
		// The keeper's own reason, such as the store file removed.
		log.Error("daemon stopped", "err", err)
		return err
	}
	log.Info("daemon stopped")
	return nil
}

// serve runs the hook server, the scheduler and the API until ctx ends.
// The hook server starts first, on the local store, and the API right
// after it: neither waits for a shared store, which may take a while to
// answer. Until it does, the API and the dashboard serve the local store
// and the pool's parts wait (late.go); then the daemon switches over.
func serve(ctx context.Context, o *Options, log *slog.Logger) error {
	st, err := sqlite.OpenResident(ctx, o.DB) // checkpoints: keeper.Run's loop, not a hook's commit
	if err != nil {
		return err
	}
	defer st.Close()
	st.SetMaxOpenConns(12) // API, scheduler and hooks; kept open between requests

	// The spool ships what hooks record here to the shared store; deferred
	// before the hook server's stop, so it stops after it (a last pass) and
	// before the store closes.
	spoolCheck, stopSpool := startSpool(st, o.DatabaseURL, o.Config, log)
	defer stopSpool()
	// Decisions to an OpenTelemetry collector, from the store, never from
	// a hook; stops (a last flush) before the store closes.
	defer startOTel(st, o.Config, log)()

	// The hook server stops last, on a context of its own, after the API
	// has drained, so hooks in flight finish before the store closes.
	hctx, hcancel := context.WithCancel(context.Background())
	hooksDone := make(chan struct{})
	go func() {
		defer close(hooksDone)
		if err := serveHooks(hctx, st, o.DB, o.Socket, slogWriter{log}); err != nil {
			log.Error("hook server", "err", err)
		}
	}()
	defer func() { hcancel(); <-hooksDone }()

	guard, gone, err := newStoreGuard(o.DB, log)
	if err != nil {
		return err
	}
	p := &Parts{Store: st, Shared: st, Reads: newEventReads(st, o.DB, log), Options: o, Log: log, Guard: guard}
	p.DBChecks = []server.DBCheck{{Name: "local", Check: func(ctx context.Context) (any, error) {
		return map[string]any{"path": o.DB}, st.Check(ctx)
	}}, storeWritesCheck(guard)}
	if spoolCheck != nil {
		p.DBChecks = append(p.DBChecks, server.DBCheck{Name: "spool", Check: spoolCheck})
	}
	p.DBChecks = append(p.DBChecks, server.DBCheck{Name: "events", Check: p.Reads.Status})
	id := newIdentity(o.Config)

	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (is another program using the port? set serve.addr or --addr)", o.Addr, err)
	}
	scheme := "http"
	if o.TLSCert != "" {
		scheme = "https"
	}
	addr := ln.Addr().String()
	o.BaseURL = scheme + "://" + addr
	o.live = newLiveConfig(o.ConfigPath, o.Config, log)
	state := State{PID: os.Getpid(), Addr: addr, URL: o.BaseURL, Started: id.started, Version: o.Version}
	stamp := o.live.Stamp()
	state.Config = &stamp
	// The CLI's token is in place before the state file says where the
	// daemon listens: a client that finds serve.json finds the token too.
	if err := ensureCLIToken(ctx, st, o.TokenPath); err != nil {
		ln.Close()
		return err
	}
	if err := writeState(o.StatePath, state); err != nil {
		ln.Close()
		return err
	}
	defer os.Remove(o.StatePath)
	o.live.onStamp = func(c ConfigStamp) {
		s := state
		s.Config = &c
		if err := writeState(o.StatePath, s); err != nil {
			log.Error("state file", "err", err)
		}
	}

	// The API, the scheduler and the pool's heartbeat and LISTEN stop
	// together (ctx ends or one fails).
	sctx, scancel := context.WithCancel(ctx)
	defer scancel()
	if o.ConfigPath != "" {
		go watchConfig(sctx, o.live, 2*time.Second)
	}
	o.notifier = notify.New(func() notify.Settings { return notifySettings(o.cfg()) }, log)
	go o.notifier.Run(sctx)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	fail := func(err error) {
		mu.Lock()
		if first == nil {
			first = err
		}
		mu.Unlock()
		scancel()
	}
	front := &switchHandler{}
	var held atomic.Pointer[pgShared] // closed once the API has drained
	// Without a shared store the pool runs at once; with one, the API
	// serves the local store until the shared store answers (buildWaiting)
	// and then switches over.
	var wait *sharedWait
	build := func() error { return buildPool(p, nil, id) }
	if o.DatabaseURL != "" {
		wait = newSharedWait(postgres.WhereURL(o.DatabaseURL), p.Reads, time.Now())
		build = func() error { return buildWaiting(p, wait, id) }
	}
	if err := build(); err != nil {
		ln.Close()
		return err
	}
	front.set(p.Server)
	if wait == nil {
		runPool(sctx, &wg, p, nil, id, fail)
	} else {
		wg.Go(func() {
			pg, err := waitShared(sctx, o.DatabaseURL, o.Stderr, log, wait)
			if err != nil {
				return // the daemon is stopping
			}
			held.Store(pg)
			if err := switchToShared(sctx, &wg, p, pg, id, front, wait, fail); err != nil {
				fail(err)
			}
		})
	}
	wg.Go(func() { keepState(sctx, o.StatePath, state, log) }) // state_keep.go
	marker := &storeMarker{st: st, statePath: o.StatePath}
	wg.Go(func() { watchStoreFile(sctx, guard, gone, time.Second, fail, func() { marker.update(sctx) }) })
	log.Info("daemon serving", "addr", addr, "system", id.system, "owner", id.owner, "shared", o.DatabaseURL != "", "max_agents", o.Config.Serve.MaxAgents, "pid", os.Getpid())
	wg.Go(func() {
		hs := server.HTTPServer(server.HostGuard(front, o.Config.Serve.Hosts), log)
		if o.Ready != nil {
			go o.Ready(addr)
		}
		if err := server.Serve(sctx, hs, ln, 10*time.Second, o.TLSCert, o.TLSKey); err != nil {
			fail(fmt.Errorf("http: %w", err))
		}
		scancel()
	})
	wg.Wait()
	if guard.Current() == nil {
		// What the store holds as the daemon leaves it, for the next
		// start's check (not for a file gone: that one holds nothing).
		_ = writeStoreMark(context.WithoutCancel(ctx), st, o.StatePath)
	}
	if pg := held.Load(); pg != nil {
		pg.Close()
	}
	return first
}

// slogWriter turns the hook server's lines into log records.
type slogWriter struct{ log *slog.Logger }

func (w slogWriter) Write(p []byte) (int, error) {
	w.log.Warn("hook server", "msg", strings.TrimSpace(string(p)))
	return len(p), nil
}

func webhooks(cfg *config.Config) server.Webhooks {
	wh := server.Webhooks{
		GitHubSecret: cfg.Webhook.GitHubSecret, GitHubLabel: cfg.Webhook.GitHubLabel, GitHubProjects: map[string]string{},
		AlertProject: cfg.Webhook.AlertmanagerProject, AlertTemplate: cfg.Webhook.AlertmanagerTemplate,
		TelegramSecret: cfg.Webhook.TelegramSecret, TelegramProject: cfg.Webhook.TelegramProject,
	}
	// Never nil: an empty webhook.github_trusted trusts nobody (nil would
	// be the server's default).
	wh.GitHubTrusted = append([]string{}, cfg.Webhook.GitHubTrusted...)
	for _, e := range cfg.Webhook.GitHubRepos {
		if repo, dir, ok := strings.Cut(e, "="); ok {
			wh.GitHubProjects[strings.TrimSpace(repo)] = filepath.Clean(strings.TrimSpace(dir))
		}
	}
	for _, c := range cfg.Webhook.TelegramChats {
		var id int64
		if _, err := fmt.Sscan(c, &id); err == nil {
			wh.TelegramChats = append(wh.TelegramChats, id)
		}
	}
	return wh
}
