// Package storetest is the conformance suite every store implementation
// passes: the SQLite store on a real file and the PostgreSQL store on a real
// server run the same tests (internal/store/sqlite and
// internal/store/postgres call Run from their tests). Like testenv it is
// imported only by _test.go files.
package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/stats"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/task"
)

// Store is every method set the daemon, the hooks and the CLI use of a
// store, as both implementations offer it.
type Store interface {
	store.Store
	task.Store
	quota.Store
	stats.Source

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

	UsageFiles(ctx context.Context) ([]store.UsageFile, error)
	UsageFilesByPath(ctx context.Context, paths []string) ([]store.UsageFile, error)
	SaveUsageFiles(ctx context.Context, upd []store.UsageFile, remove []string) error
	SaveUsage(ctx context.Context, upd []store.UsageFile, remove []string, snaps []store.UsageSnapshot) error
	ClearUsageFiles(ctx context.Context) error
	UsageSnapshot(ctx context.Context, name string) (fingerprint, data []byte, ok bool, err error)
	SaveUsageSnapshot(ctx context.Context, name string, fingerprint, data []byte) error
}

// Backend is how the suite makes stores of one implementation.
type Backend struct {
	// New makes a fresh, empty location (a file path, a database URL).
	New func(t testing.TB) string
	// Open opens the store at loc; the suite closes it. Opening one loc
	// twice gives two handles on one store, as two processes or workers
	// would have.
	Open func(t testing.TB, loc string) Store
	// Exec runs SQL on the store's database directly (the tamper tests);
	// the statements the suite uses read the same in both dialects.
	Exec func(t testing.TB, s Store, sql string)
}

// fresh opens a new, empty store.
func (b Backend) fresh(t testing.TB) Store {
	t.Helper()
	return b.open(t, b.New(t))
}

func (b Backend) open(t testing.TB, loc string) Store {
	t.Helper()
	s := b.Open(t, loc)
	t.Cleanup(func() { s.Close() })
	return s
}

// twin opens a store and a second handle on it.
func (b Backend) twin(t testing.TB) (Store, Store) {
	t.Helper()
	loc := b.New(t)
	return b.open(t, loc), b.open(t, loc)
}

// Run runs every conformance test against b, side by side: each has a
// store of its own.
func Run(t *testing.T, b Backend) {
	for _, c := range []struct {
		name string
		f    func(*testing.T, Backend)
	}{
		{"Events", testEvents},
		{"EventsPage", testEventsPage},
		{"ChainBreaks", testChainBreaks},
		{"ChainConcurrentWriters", testChainConcurrentWriters},
		{"ChainSurvivesRetention", testChainSurvivesRetention},
		{"PruneEverythingKeepsTheAnchor", testPruneEverythingKeepsTheAnchor},
		{"Sessions", testSessions},
		{"Settings", testSettings},
		{"ClaimSettingHasOneWinner", testClaimSettingHasOneWinner},
		{"PacingLedger", testPacingLedger},
		{"PollLeaseOneWinner", testPollLeaseOneWinner},
		{"UsageCache", testUsageCache},
		{"Judgements", testJudgements},
		{"PendingVerdicts", testPendingVerdicts},
		{"TaskQueueOrderClaimAndHistory", testTaskQueueOrderClaimAndHistory},
		{"TaskIdempotencyAndQueueLimit", testTaskIdempotencyAndQueueLimit},
		{"TaskPinnedToSystem", testTaskPinnedToSystem},
		{"ClaimNextConcurrent", testClaimNextConcurrent},
		{"UpdateTaskConflicts", testUpdateTaskConflicts},
		{"SchedulingDecisions", testSchedulingDecisions},
		{"TokensAndDeliveries", testTokensAndDeliveries},
		{"Agents", testAgents},
		{"StatsEqualDirectCounts", testStatsEqualDirectCounts},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.f(t, b)
		})
	}
}

var ctx = context.Background()
