package store

import (
	"context"
	"time"

	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/stats"
	"github.com/warden-dev/warden/internal/task"
)

// A store plays one of two roles, and each role is one interface:
//
//   - Local is this machine's store, always SQLite (internal/store/sqlite):
//     what hooks, the CLI, judges, the usage cache and agents need. The hook
//     path never waits on the network, so it only ever sees a Local.
//   - Shared is what a pool of daemons keeps where every worker sees it:
//     the task queue, the API's tokens, webhook deliveries, the systems
//     table, the pacing ledger, the events shipped from each machine and
//     the reads of that record. PostgreSQL implements it
//     (internal/store/postgres), and so does SQLite for a daemon alone.
//
// Both are composed of the narrow interfaces below; a consumer declares
// the narrowest one it uses (or its own, smaller still). No capability is
// found by a type assertion: what a caller needs is in the type it takes
// (TestNoStoreTypeAssertions guards it). internal/store/storetest runs
// Shared's conformance on both stores and Local's on SQLite.

// Local is this machine's store: hooks, the CLI, judges, the usage cache
// and agents (internal/store/sqlite).
type Local interface {
	Store
	RecordReader
	Settings
	Retention
	Verdicts
	Agents
	UsageCache
	quota.Store
	stats.Source
}

// Shared is the store a pool of daemons shares: PostgreSQL, or the local
// SQLite store of a daemon alone.
type Shared interface {
	task.Store
	quota.Store
	Tokens
	Deliveries
	Systems
	RecordReader
	AuditReader
	Importer
	TaskRetention
	Close() error
}

// TaskRetention is the queue's pruning (serve.task_rows_days): finished
// tasks oldest first, and their rows deleted with their history.
type TaskRetention interface {
	FinishedTasks(ctx context.Context, before time.Time, limit int) ([]task.Task, error)
	DeleteTasks(ctx context.Context, ids []string) (int64, error)
}

// Settings is the settings table beyond Store's Setting and SetSetting.
type Settings interface {
	Setting(ctx context.Context, key string) (value string, ok bool, err error)
	SetSetting(ctx context.Context, key, value string) error
	// Settings reads several keys in one query; absent keys are absent
	// from the map (the hook preloads what its handlers read).
	Settings(ctx context.Context, keys []string) (map[string]string, error)
	// ClaimSetting sets key unless it is set, in one step; it reports
	// whether this caller set it.
	ClaimSetting(ctx context.Context, key, value string) (bool, error)
	DeleteSetting(ctx context.Context, key string) error
}

// Retention is the local store's retention while a shared store is
// configured: rows the shipper has not copied yet stay, until the bound
// (internal/store/ship) drops them on record.
type Retention interface {
	PruneShipped(ctx context.Context, before time.Time) (events, sessions int64, err error)
	DropUnshipped(ctx context.Context, before time.Time, reason string) (Dropped, error)
}

// Verdicts are the judges' records: every judge call, and the lazy
// verdicts a later hook delivers.
type Verdicts interface {
	RecordJudgementRow(ctx context.Context, j *Judgement) error
	Judgements(ctx context.Context, f JudgementFilter) ([]Judgement, error)
	AddPending(ctx context.Context, p *PendingVerdict) (int64, error)
	Pending(ctx context.Context, id int64) (*PendingVerdict, error)
	FinishPending(ctx context.Context, id int64, state, reason string) error
	TakeFailedVerdict(ctx context.Context, sessionID string, since time.Time) (*PendingVerdict, error)
}

// Agents are the agents this machine runs (tmux windows, headless runs).
type Agents interface {
	InsertAgent(ctx context.Context, a *Agent) error
	UpdateAgent(ctx context.Context, a *Agent, next *AgentState) error
	Agent(ctx context.Context, task string) (*Agent, error)
	Agents(ctx context.Context, all bool) ([]*Agent, error)
	AgentStates(ctx context.Context, task string) ([]AgentState, error)
}

// UsageCache keeps what was parsed of Claude Code's transcripts, per file,
// and the reports computed from them.
type UsageCache interface {
	UsageFiles(ctx context.Context) ([]UsageFile, error)
	UsageFilesByPath(ctx context.Context, paths []string) ([]UsageFile, error)
	SaveUsageFiles(ctx context.Context, upd []UsageFile, remove []string) error
	SaveUsage(ctx context.Context, upd []UsageFile, remove []string, snaps []UsageSnapshot) error
	ClearUsageFiles(ctx context.Context) error
	UsageSnapshot(ctx context.Context, name string) (fingerprint, data []byte, ok bool, err error)
	SaveUsageSnapshot(ctx context.Context, name string, fingerprint, data []byte) error
}

// Tokens are the daemon API's bearer tokens (kept hashed).
type Tokens interface {
	AddToken(ctx context.Context, t *APIToken) error
	TokenByHash(ctx context.Context, hash string) (*APIToken, error)
	TouchToken(ctx context.Context, id string, now time.Time) error
	Tokens(ctx context.Context) ([]APIToken, error)
	RevokeToken(ctx context.Context, idOrName string, now time.Time) (int64, error)
}

// Deliveries remember webhook deliveries, so a redelivery makes no second
// task.
type Deliveries interface {
	ClaimDelivery(ctx context.Context, source, id string, now time.Time) (first bool, err error)
	SetDeliveryTask(ctx context.Context, source, id, taskID string) error
	DeliveryTask(ctx context.Context, source, id string) (taskID string, seen bool, err error)
	PruneDeliveries(ctx context.Context, before time.Time) (int64, error)
}

// Systems is the systems table: one row per worker of a pool.
type Systems interface {
	BeatSystem(ctx context.Context, sys System) error
	Systems(ctx context.Context) ([]System, error)
	LeaveSystem(ctx context.Context, owner string) error
}

// RecordReader is what the dashboard and the API read of the record: the
// machine's own, or every machine's in the shared store.
type RecordReader interface {
	ActivityReader
	EventsPage(ctx context.Context, after int64, session string, since time.Time, limit int) ([]Event, error)
	SessionsPage(ctx context.Context, limit int) ([]Session, error)
	// Check says whether the store is usable (reachable, schema current).
	Check(ctx context.Context) error
}

// AuditReader is the audit side of the record: `warden audit verify` walks
// the chain, `warden replay` reads the events (store.Store has both, so the
// local store does too).
type AuditReader interface {
	// Events lists events matching f, oldest first.
	Events(ctx context.Context, f Filter) ([]Event, error)
	// VerifyChain walks the audit chain from the oldest row and returns how
	// many rows it checked and the first break, if any.
	VerifyChain(ctx context.Context) (checked int64, brk *ChainBreak, err error)
}

// Importer takes the events and session states shipped from a local store
// (internal/store/ship).
type Importer interface {
	// ImportEvents appends evs — one origin's rows in its id order — to the
	// audit chain in one transaction, skipping rows whose (origin, id) it
	// has already; it returns how many it inserted.
	ImportEvents(ctx context.Context, origin string, evs []Event) (int, error)
	// ImportSessions saves session states, keeping a newer one it has.
	ImportSessions(ctx context.Context, sess []Session) error
}
