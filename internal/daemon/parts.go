package daemon

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/orchestrator"
	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/pool"
	"github.com/warden-dev/warden/internal/server"
	"github.com/warden-dev/warden/internal/usage"
)

// identity is who this daemon is in the pool: fixed at start-up.
type identity struct {
	system, owner, host string
	started             time.Time
}

func newIdentity(cfg *config.Config) identity {
	system := cfg.Serve.System
	if system == "" {
		system, _ = os.Hostname()
	}
	host, _ := os.Hostname()
	return identity{system: system, owner: pool.OwnerOf(system, os.Getpid()), host: host, started: time.Now().UTC()}
}

// buildPool builds the scheduler and the API on p.Shared: the local store
// alone (pg nil) or the shared PostgreSQL store.
func buildPool(p *Parts, pg *pgShared, id identity) error {
	o, cfg := p.Options, p.Options.cfg()
	p.Runners = map[string]agent.Runner{
		agent.HeadlessName: &agent.Headless{
			Command: cfg.Serve.ClaudeCommand, Args: cfg.Serve.ClaudeArgs, Env: o.Env, Dir: o.TaskDir,
			Timeout: time.Duration(cfg.Serve.TaskTimeout) * time.Minute,
		},
	}
	var peers orchestrator.Peers
	interval := time.Second
	shared := func() *server.SharedState { return nil }
	if pg != nil {
		p.Shared = pg
		peers = pool.Peers{Registry: &pool.Stored{St: pg, Stale: pool.StaleAfter(pool.BeatEvery, pool.MissedBeats)}, Leases: pg}
		p.DBChecks = append(p.DBChecks, server.DBCheck{Name: "shared", Check: func(ctx context.Context) (any, error) {
			t0 := time.Now()
			err := pg.Check(ctx)
			return map[string]any{"where": pg.where, "latency_ms": float64(time.Since(t0).Microseconds()) / 1000}, err
		}})
		up := &server.SharedState{State: "up", Where: pg.where, Since: time.Now().UTC()}
		shared = func() *server.SharedState { c := *up; return &c }
		// NOTIFY wakes the scheduler; polling is only the fallback.
		interval = 5 * time.Second
	}
	// The systems table: this daemon's row alone, or the pool's.
	p.Registry = &pool.Stored{St: p.Shared, Stale: pool.StaleAfter(pool.BeatEvery, pool.MissedBeats)}
	extendRunners(p)

	// The queue's writes are guarded (storeguard.go): a store that fails
	// one stops the scheduler's claims and the API's new tasks.
	where, local := o.DB, pg == nil
	if pg != nil {
		where = pg.where
	}
	queue := guardTasks(p.Shared, p.Guard, where, local)
	sched, err := orchestrator.New(orchestrator.Options{
		Store: queue, Settings: p.Store, Gate: p.Guard.Refuse, Runners: p.Runners, Default: p.Default,
		Quota: liveQuota{o: o, store: p.Shared},
		Log:   p.Log, Owner: id.owner, System: id.system, Peers: peers, Interval: interval,
		MaxAgents: cfg.Serve.MaxAgents, MaxAttempts: cfg.Serve.MaxAttempts,
	})
	if err != nil {
		return err
	}
	p.Scheduler = sched
	o.onReload("scheduler", func(c *config.Config) { sched.SetLimits(c.Serve.MaxAgents, c.Serve.MaxAttempts) })
	srv, err := server.New(server.Options{
		Tasks: queue, Scheduler: sched, StoreFault: p.Guard.Current, Tokens: p.Shared, Deliveries: p.Shared, Events: p.Reads, EventSource: p.Reads.Source,
		Pace: func(ctx context.Context, now time.Time) (*pace.Record, error) {
			rec, _, err := pace.Current(ctx, p.Shared, pace.SettingsFrom(o.cfg()), "", now)
			return rec, err
		},
		ConfigStatus: o.configStatus(),
		Usage:        UsageReader(p.Store, usage.ConfigDirs()),
		Agents:       p.Agents,
		Webhooks:     webhooks(cfg),
		Systems:      p.Registry.Systems,
		DBChecks:     p.DBChecks,
		Shared:       shared,
		QueueSize:    cfg.Serve.QueueSize, System: id.system, Owner: id.owner, Version: o.Version, Log: p.Log, Started: id.started,
	})
	if err != nil {
		return err
	}
	p.Server = srv
	onReloadWebhooks(p)
	extendServer(p)
	return nil
}

// onReloadWebhooks applies reloaded webhook.* keys to p's server.
func onReloadWebhooks(p *Parts) {
	srv := p.Server
	p.Options.onReload("webhooks", func(c *config.Config) {
		if err := srv.SetWebhooks(webhooks(c)); err != nil {
			p.Log.Error("config reload: webhook.alertmanager_template does not parse; the webhooks keep their settings", "err", err)
		}
	})
}

// buildWaiting builds the API a pool's daemon serves until its shared
// store answers: the record and the dashboard from the local store,
// this machine's tokens (the CLI's among them), the pacing decision the
// local hooks follow; the queue's routes answer 503 (server.SharedState)
// and no scheduler, agent, ledger or heartbeat runs.
func buildWaiting(p *Parts, wait *sharedWait, id identity) error {
	o, cfg := p.Options, p.Options.cfg()
	srv, err := server.New(server.Options{
		Tasks: waitingTasks{}, Scheduler: waitingScheduler{maxAgents: cfg.Serve.MaxAgents}, Tokens: p.Store,
		Events: p.Reads, EventSource: p.Reads.Source,
		Pace: func(ctx context.Context, now time.Time) (*pace.Record, error) {
			rec, _, err := pace.Current(ctx, p.Store, pace.SettingsFrom(o.cfg()), "", now)
			return rec, err
		},
		ConfigStatus: o.configStatus(),
		Usage:        UsageReader(p.Store, usage.ConfigDirs()),
		Webhooks:     webhooks(cfg),
		DBChecks:     append(p.DBChecks[:len(p.DBChecks):len(p.DBChecks)], server.DBCheck{Name: "shared", Check: wait.check}),
		Shared:       wait.State,
		QueueSize:    cfg.Serve.QueueSize, System: id.system, Owner: id.owner, Version: o.Version, Log: p.Log, Started: id.started,
	})
	if err != nil {
		return err
	}
	p.Server = srv
	onReloadWebhooks(p)
	extendServer(p)
	return nil
}

// switchToShared builds the pool's parts on pg once it answers, points
// the API at them and starts the scheduler, the heartbeat, LISTEN and
// the ledger (on wg, until ctx ends). waiting keeps its own Parts: the
// waiting server's dashboard may still be answering a request.
func switchToShared(ctx context.Context, wg *sync.WaitGroup, waiting *Parts, pg *pgShared, id identity, front *switchHandler, wait *sharedWait, fail func(error)) error {
	p := &Parts{Store: waiting.Store, Shared: waiting.Store, Reads: waiting.Reads, Options: waiting.Options, Log: waiting.Log, Guard: waiting.Guard}
	p.DBChecks = waiting.DBChecks[:len(waiting.DBChecks):len(waiting.DBChecks)]
	if err := buildPool(p, pg, id); err != nil {
		return err
	}
	if err := ensureCLIToken(ctx, pg, p.Options.TokenPath); err != nil {
		return fmt.Errorf("the API token of the local CLI in the shared store: %w", err)
	}
	p.Reads.useShared(pg.reads, pg.where)
	front.set(p.Server)
	wait.up(pg.where, time.Now())
	// Live views opened before the switch stream from the waiting
	// handler: end them, so their pages reload from this one (the
	// pool's events, the footer saying so).
	if waiting.Dashboard != nil {
		waiting.Dashboard.Retire()
	}
	p.Log.Info("shared store answers: serving the pool's queue, scheduler and events from it", "where", pg.where)
	runPool(ctx, wg, p, pg, id, fail)
	return nil
}

// runPool starts the heartbeat, the scheduler and, with a shared store,
// its LISTEN and the pacing ledger, on wg until ctx ends.
func runPool(ctx context.Context, wg *sync.WaitGroup, p *Parts, pg *pgShared, id identity, fail func(error)) {
	o, sched := p.Options, p.Scheduler
	wg.Go(func() {
		pool.Heartbeat(ctx, p.Registry, pool.BeatEvery, func() pool.System {
			ss := sched.Status()
			return pool.System{Owner: id.owner, Name: id.system, Host: id.host, PID: os.Getpid(), Version: o.Version,
				Agents: ss.Running, MaxAgents: ss.MaxAgents, Load1: pool.Load1(), Started: id.started}
		}, p.Log)
	})
	if pg != nil {
		wg.Go(func() { _ = pg.listen(ctx, func(string) { sched.Notify() }) })
		// One account, one ledger: figures and the usage poll's lease go
		// through the shared store; hooks keep to the local one.
		ps := pace.SettingsFrom(o.Config)
		ledger := &pool.Ledger{Local: p.Store, Shared: pg, Owner: id.owner, Interval: ps.PollInterval, Log: p.Log}
		wg.Go(func() { ledger.Run(ctx) })
	}
	// Task retention: at start, then hourly (prune.go).
	wg.Go(func() { runPrune(ctx, p, p.Shared, time.Hour) })
	wg.Go(func() {
		if err := sched.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
			fail(fmt.Errorf("scheduler: %w", err))
		}
	})
}
