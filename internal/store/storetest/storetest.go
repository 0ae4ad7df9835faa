// Package storetest is the conformance suite of the two store roles: the
// Shared role on the SQLite store (a real file) and the PostgreSQL store (a
// real server) alike, the Local role on the SQLite store
// (internal/store/sqlite and internal/store/postgres call RunShared and
// RunLocal from their tests). Like testenv it is
// imported only by _test.go files.
package storetest

import (
	"context"
	"testing"

	"github.com/warden-dev/warden/internal/store"
)

// The two roles the suite holds the stores to (internal/store/roles.go):
// Shared runs on SQLite and PostgreSQL, Local on SQLite.
type (
	Shared = store.Shared
	Local  = store.Local
)

// Backend is how the suite makes stores of one implementation in one role.
type Backend[S interface{ Close() error }] struct {
	// New makes a fresh, empty location (a file path, a database URL).
	New func(t testing.TB) string
	// Open opens the store at loc; the suite closes it. Opening one loc
	// twice gives two handles on one store, as two processes or workers
	// would have.
	Open func(t testing.TB, loc string) S
	// Exec runs SQL on the store's database directly (the tamper tests);
	// the statements the suite uses read the same in both dialects.
	Exec func(t testing.TB, s S, sql string)
}

// SharedBackend and LocalBackend are a store in each role.
type (
	SharedBackend = Backend[Shared]
	LocalBackend  = Backend[Local]
)

// fresh opens a new, empty store.
func (b Backend[S]) fresh(t testing.TB) S {
	t.Helper()
	return b.open(t, b.New(t))
}

func (b Backend[S]) open(t testing.TB, loc string) S {
	t.Helper()
	s := b.Open(t, loc)
	t.Cleanup(func() { s.Close() })
	return s
}

// twin opens a store and a second handle on it.
func (b Backend[S]) twin(t testing.TB) (S, S) {
	t.Helper()
	loc := b.New(t)
	return b.open(t, loc), b.open(t, loc)
}

// RunShared runs the Shared role's conformance tests against b, side by
// side: each has a store of its own. Both stores pass them.
func RunShared(t *testing.T, b SharedBackend) {
	run(t, b, []test[Shared]{
		{"EventsPage", testEventsPage},
		{"ImportedChain", testImportedChain},
		{"PacingLedger", testPacingLedger},
		{"PollLeaseOneWinner", testPollLeaseOneWinner},
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
		{"Systems", testSystems},
		{"SessionSummaries", testSessionSummaries},
		{"RuleDecisionCounts", testRuleDecisionCounts},
		{"Overrides", testOverrides},
		{"SearchEvents", testSearchEvents},
		{"TaskPrune", testTaskPrune},
	})
}

// RunLocal runs the Local role's conformance tests against b (the SQLite
// store; the PostgreSQL store does not play this role).
func RunLocal(t *testing.T, b LocalBackend) {
	run(t, b, []test[Local]{
		{"Events", testEvents},
		{"ChainBreaks", testChainBreaks},
		{"ChainConcurrentWriters", testChainConcurrentWriters},
		{"ChainSurvivesRetention", testChainSurvivesRetention},
		{"PruneEverythingKeepsTheAnchor", testPruneEverythingKeepsTheAnchor},
		{"Sessions", testSessions},
		{"Settings", testSettings},
		{"ClaimSettingHasOneWinner", testClaimSettingHasOneWinner},
		{"UsageCache", testUsageCache},
		{"Judgements", testJudgements},
		{"PendingVerdicts", testPendingVerdicts},
		{"Agents", testAgents},
		{"StatsEqualDirectCounts", testStatsEqualDirectCounts},
	})
}

type test[S interface{ Close() error }] struct {
	name string
	f    func(*testing.T, Backend[S])
}

func run[S interface{ Close() error }](t *testing.T, b Backend[S], tests []test[S]) {
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.f(t, b)
		})
	}
}

var ctx = context.Background()
