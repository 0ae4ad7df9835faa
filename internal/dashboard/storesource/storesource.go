// Package storesource implements the dashboard's data interfaces over the
// store (any that implements Store: this machine's SQLite store, with the
// event pages optionally read from a pool's shared store, Options.Activity)
// and the packages that already compute
// each figure: pacing (internal/pace), usage reports (internal/usage), the
// effective config (internal/config) and the policy engine (explain). It
// adds no figures of its own, so the dashboard shows what the CLI prints.
package storesource

import (
	"context"
	"os"
	"sync"
	"time"

	"github.com/warden-dev/warden/internal/dashboard"
	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/usage"
)

// Store is what the dashboard reads: the event log's read models, pacing
// figures, judge calls and the usage cache.
type Store interface {
	store.ActivityReader
	Judgements(ctx context.Context, f store.JudgementFilter) ([]store.Judgement, error)
	pace.SnapshotReader
	SnapshotsSince(ctx context.Context, since time.Time) ([]quota.Snapshot, error)
	ActiveSessions(ctx context.Context, since time.Time) ([]string, error)
	usage.CacheStore
}

// Options locate what the store does not hold.
type Options struct {
	// WardenHome holds config.toml and rules/ (paths.Home()).
	WardenHome string
	// ProjectDir is the project whose .warden/ config and rules apply
	// (the daemon's directory); "" for none.
	ProjectDir string
	// UserHome is the user's home directory, for `~` in policy facts;
	// "": os.UserHomeDir() once, at New (a daemon must not look it up per
	// request: the hook server swaps the environment).
	UserHome string
	// UsageDirs are Claude Code config directories to read transcripts
	// from; nil: usage.ConfigDirs().
	UsageDirs []string
	// UsageTTL is how long usage reports are reused; 0: one minute.
	UsageTTL time.Duration
	// Loc is the time zone of daily usage; nil: time.Local.
	Loc *time.Location
	// Now is the clock the usage report's "today" and its current block
	// are taken from; nil: time.Now. Tests pin it.
	Now func() time.Time
	// Activity is where the event pages (sessions, live, decisions,
	// explain) read the record; nil: the store. A daemon in a pool passes
	// the shared store's, so the pages show every machine's events.
	Activity store.ActivityReader
}

// Source is every dashboard source over one store.
type Source struct {
	st  Store
	act store.ActivityReader // opt.Activity, else st
	opt Options

	usageMu   sync.Mutex
	usageView *dashboard.UsageView
	usageAt   time.Time
	usageErr  error
	usageDone chan struct{} // non-nil while a refresh runs
}

// New wraps an open store; the caller keeps closing it.
func New(st Store, opt Options) *Source {
	if opt.UsageTTL <= 0 {
		opt.UsageTTL = time.Minute
	}
	if opt.Loc == nil {
		opt.Loc = time.Local
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.UserHome == "" {
		opt.UserHome, _ = os.UserHomeDir()
	}
	if opt.UsageDirs == nil {
		opt.UsageDirs = usage.ConfigDirs()
	}
	act := opt.Activity
	if act == nil {
		act = st
	}
	return &Source{st: st, act: act, opt: opt}
}

// Sources returns the dashboard sources this package implements (all but
// tasks, which belong to the daemon).
func (s *Source) Sources() dashboard.Sources {
	return dashboard.Sources{Events: s, Sessions: s, Pacing: s, Decisions: s, Judgements: s, Usage: s, Settings: s}
}
