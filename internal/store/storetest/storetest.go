// Package storetest is the conformance suite every store implementation
// passes: the SQLite store on a real file and the PostgreSQL store on a real
// server run the same tests (internal/store/sqlite and
// internal/store/postgres call Run from their tests). Like testenv it is
// imported only by _test.go files.
package storetest

import (
	"context"
	"testing"

	"github.com/warden-dev/warden/internal/store/backend"
)

// Store is every method set the suite checks: backend.Store.
type Store = backend.Store

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
		{"TaskRules", testTaskRules},
		{"ClaimNextConcurrent", testClaimNextConcurrent},
		{"UpdateTaskConflicts", testUpdateTaskConflicts},
		{"UpdateTaskOwnerFence", testUpdateTaskOwnerFence},
		{"SchedulingDecisions", testSchedulingDecisions},
		{"TokensAndDeliveries", testTokensAndDeliveries},
		{"TokenScopes", testTokenScopes},
		{"RequeueRefund", testRequeueRefund},
		{"DeliveryRetention", testDeliveryRetention},
		{"Agents", testAgents},
		{"Systems", testSystems},
		{"StatsEqualDirectCounts", testStatsEqualDirectCounts},
		{"SessionSummaries", testSessionSummaries},
		{"RuleDecisionCounts", testRuleDecisionCounts},
		{"Overrides", testOverrides},
		{"SearchEvents", testSearchEvents},
		{"TaskPrune", testTaskPrune},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.f(t, b)
		})
	}
}

var ctx = context.Background()
