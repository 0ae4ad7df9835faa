// Package backend opens the store a configuration chooses: PostgreSQL
// when a URL is set (store.url, WARDEN_DATABASE_URL), else the local
// SQLite file. It links pgx, so only the daemon's binary imports it; hooks
// keep the SQLite store (internal/hook may not import this).
package backend

import (
	"context"
	"time"

	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/stats"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/task"
)

// Store is every method set the daemon, the hooks and the CLI use of a
// store, as both implementations offer it (internal/store/storetest holds
// both to the same behaviour).
type Store interface {
	store.Store
	task.Store
	quota.Store
	stats.Source
	store.ActivityReader
	store.Importer

	ClaimSetting(ctx context.Context, key, value string) (bool, error)
	DeleteSetting(ctx context.Context, key string) error
	EventsPage(ctx context.Context, after int64, session string, since time.Time, limit int) ([]store.Event, error)
	SessionsPage(ctx context.Context, limit int) ([]store.Session, error)

	AddToken(ctx context.Context, t *store.APIToken) error
	TokenByHash(ctx context.Context, hash string) (*store.APIToken, error)
	TouchToken(ctx context.Context, id string, now time.Time) error
	Tokens(ctx context.Context) ([]store.APIToken, error)
	RevokeToken(ctx context.Context, idOrName string, now time.Time) (int64, error)
	ClaimDelivery(ctx context.Context, source, id string, now time.Time) (bool, error)
	SetDeliveryTask(ctx context.Context, source, id, taskID string) error
	DeliveryTask(ctx context.Context, source, id string) (taskID string, seen bool, err error)
	PruneDeliveries(ctx context.Context, before time.Time) (int64, error)

	InsertAgent(ctx context.Context, a *store.Agent) error
	UpdateAgent(ctx context.Context, a *store.Agent, next *store.AgentState) error
	Agent(ctx context.Context, task string) (*store.Agent, error)
	Agents(ctx context.Context, all bool) ([]*store.Agent, error)
	AgentStates(ctx context.Context, task string) ([]store.AgentState, error)

	RecordJudgementRow(ctx context.Context, j *store.Judgement) error
	Judgements(ctx context.Context, f store.JudgementFilter) ([]store.Judgement, error)
	AddPending(ctx context.Context, p *store.PendingVerdict) (int64, error)
	Pending(ctx context.Context, id int64) (*store.PendingVerdict, error)
	FinishPending(ctx context.Context, id int64, state, reason string) error
	TakeFailedVerdict(ctx context.Context, sessionID string, since time.Time) (*store.PendingVerdict, error)

	BeatSystem(ctx context.Context, sys store.System) error
	Systems(ctx context.Context) ([]store.System, error)
	LeaveSystem(ctx context.Context, owner string) error

	UsageFiles(ctx context.Context) ([]store.UsageFile, error)
	UsageFilesByPath(ctx context.Context, paths []string) ([]store.UsageFile, error)
	SaveUsageFiles(ctx context.Context, upd []store.UsageFile, remove []string) error
	SaveUsage(ctx context.Context, upd []store.UsageFile, remove []string, snaps []store.UsageSnapshot) error
	ClearUsageFiles(ctx context.Context) error
	UsageSnapshot(ctx context.Context, name string) (fingerprint, data []byte, ok bool, err error)
	SaveUsageSnapshot(ctx context.Context, name string, fingerprint, data []byte) error
}

var (
	_ Store = (*sqlite.Store)(nil)
	_ Store = (*postgres.Store)(nil)
)

// Open opens the PostgreSQL store at url when url is not empty, else the
// SQLite store at path. Either way the schema is migrated; errors name
// the file or the setting and the fix.
func Open(ctx context.Context, url, path string) (Store, error) {
	if url != "" {
		return postgres.Open(ctx, url)
	}
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	return st, nil
}
