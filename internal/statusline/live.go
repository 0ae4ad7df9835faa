package statusline

import (
	"context"
	"strconv"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/detach"
	"github.com/warden-dev/warden/internal/lifecycle"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/reqenv"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// defaultStoreBudget bounds each store access of a render (opening the
// store, recording the rate limits, claiming the threshold handoff): a
// status line must not wait on a busy store.
const defaultStoreBudget = 300 * time.Millisecond

// Live fills opts for a real render for the caller opts.Env (nil: this
// process): COLUMNS, colours, context.threshold from the caller's user and
// project config, the branch from .git/HEAD, the badge and pacing
// segments, and the once-per-session handoff when the threshold is
// crossed, started with the caller's environment and directory.
func Live(opts Options) Options {
	if opts.Env == nil {
		opts.Env = reqenv.Process()
	}
	env := opts.Env
	p := paths.Of(env.Getenv)
	if opts.Columns == 0 {
		opts.Columns = ColumnsFromEnv(env.Getenv)
	}
	opts.Color = ColorFromEnv(env.Getenv)
	opts.Threshold = func(project string) int {
		cfg, _ := config.Load(p.UserConfig(), env.Abs(project))
		return cfg.Context.Threshold
	}
	opts.Branch = func(dir string) string { return lifecycle.BranchFast(env.Abs(dir)) }
	spawn := opts.Spawn
	if spawn == nil {
		spawn = func(env *reqenv.Env, args []string) error { return detach.StartFor(env, "", args...) }
	}
	budget := opts.storeBudget()
	opts.Fire = func(in Input, pct int) { FireHandoff(env, in, pct, spawn, budget) }
	opts.Fired = func(in Input) bool { return lifecycle.MarkerFired(p.Home(), in.SessionID) }
	opts.Pacing = pacingSegment
	var closeStore func()
	opts.OpenStore, closeStore = lazyStore(p.DB(), budget)
	opts.Done = closeStore
	return opts
}

// openLocal opens the local SQLite store: the status line, like the hooks,
// reads and writes only it (never a shared PostgreSQL store), so this is
// its one constructor; everything past it sees store.Local.
func openLocal(ctx context.Context, db string) (store.Local, error) { return sqlite.Open(ctx, db) }

// lazyStore opens the store db at most once per render, on first use; the
// second function closes it if it was opened.
func lazyStore(db string, budget time.Duration) (func() (StoreReader, bool), func()) {
	var st store.Local
	tried := false
	closeIt := func() {
		if st != nil {
			st.Close()
			st = nil
		}
	}
	return func() (StoreReader, bool) {
		if !tried {
			tried = true
			ctx, cancel := context.WithTimeout(context.Background(), budget)
			defer cancel()
			if s, err := openLocal(ctx, db); err == nil {
				st = s
			}
		}
		if st == nil {
			return nil, false
		}
		return st, true
	}, closeIt
}

// FireHandoff marks the session in the store and, for the one render that
// set the mark, starts `warden handoff auto` detached (internal/detach: its
// own session, stdio on /dev/null, reaped when it exits) with the caller's
// environment and directory.
func FireHandoff(env *reqenv.Env, in Input, pct int, spawn func(*reqenv.Env, []string) error, budget time.Duration) {
	p := paths.Of(env.Getenv)
	project := env.Abs(in.Project())
	if in.SessionID == "" || project == "" || lifecycle.MarkerFired(p.Home(), in.SessionID) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	st, err := openLocal(ctx, p.DB())
	if err != nil {
		return
	}
	defer st.Close()
	if lifecycle.ThresholdFired(ctx, st, in.SessionID) {
		lifecycle.SetMarker(p.Home(), in.SessionID)
		return
	}
	claimed, err := lifecycle.ClaimThreshold(ctx, st, in.SessionID, pct, time.Now())
	if err != nil || !claimed {
		return
	}
	lifecycle.SetMarker(p.Home(), in.SessionID)
	args := []string{"handoff", "auto", "--session", in.SessionID, "--project", project,
		"--percent", strconv.Itoa(pct)}
	if in.TranscriptPath != "" {
		args = append(args, "--transcript", in.TranscriptPath)
	}
	_ = spawn(env, args)
}
