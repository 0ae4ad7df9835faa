package statusline

import (
	"context"
	"github.com/warden-dev/warden/internal/detach"
	"os"
	"strconv"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/lifecycle"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// storeBudget bounds the store access of a render that crossed the
// threshold (the only render path that touches the store).
const storeBudget = 300 * time.Millisecond

// Spawn starts `warden handoff auto` detached; tests replace it.
var Spawn = func(args []string) error { return detach.Start("", args...) }

// Live fills opts for a real render: COLUMNS, colours, context.threshold
// from the user and project config, the branch from .git/HEAD, and the
// once-per-session handoff when the threshold is crossed.
func Live(opts Options) Options {
	if opts.Columns == 0 {
		opts.Columns = ColumnsFromEnv(os.Getenv)
	}
	opts.Color = ColorFromEnv(os.Getenv)
	opts.Threshold = func(project string) int {
		cfg, _ := config.Load(paths.UserConfig(), project)
		return cfg.Context.Threshold
	}
	opts.Branch = lifecycle.BranchFast
	opts.Fire = FireHandoff
	opts.Fired = func(in Input) bool { return lifecycle.MarkerFired(in.SessionID) }
	var closeStore func()
	opts.OpenStore, closeStore = lazyStore()
	opts.Done = closeStore
	return opts
}

// lazyStore opens the store at most once per render, on first use; the
// second function closes it if it was opened.
func lazyStore() (func() (StoreReader, bool), func()) {
	var st *sqlite.Store
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
			ctx, cancel := context.WithTimeout(context.Background(), storeBudget)
			defer cancel()
			if s, err := sqlite.Open(ctx, paths.DB()); err == nil {
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
// set the mark, spawns `warden handoff auto` in its own session with
// stdio on /dev/null, never waited on.
func FireHandoff(in Input, pct int) {
	project := in.Project()
	if in.SessionID == "" || project == "" || lifecycle.MarkerFired(in.SessionID) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeBudget)
	defer cancel()
	st, err := sqlite.Open(ctx, paths.DB())
	if err != nil {
		return
	}
	defer st.Close()
	if lifecycle.ThresholdFired(ctx, st, in.SessionID) {
		lifecycle.SetMarker(in.SessionID)
		return
	}
	claimed, err := lifecycle.ClaimThreshold(ctx, st, in.SessionID, pct, time.Now())
	if err != nil || !claimed {
		return
	}
	lifecycle.SetMarker(in.SessionID)
	args := []string{"handoff", "auto", "--session", in.SessionID, "--project", project,
		"--percent", strconv.Itoa(pct)}
	if in.TranscriptPath != "" {
		args = append(args, "--transcript", in.TranscriptPath)
	}
	_ = Spawn(args)
}
