// Package quota is the data pacing works from, as the store keeps it: usage
// snapshots (the 5-hour and 7-day figures and where they came from), the
// cached pacing decision, the poll lease that lets one process on the
// machine poll the OAuth usage endpoint per interval, and the once-per-reset
// notices. It holds types and the Store interface only (no I/O), so the
// store implementation and package pace can share them without a cycle.
package quota

import (
	"context"
	"time"
)

// Sources of usage figures, best first (SPEC.md §2).
const (
	// SourceStatusline: rate_limits of the status line payload, persisted by
	// `warden statusline` (authoritative, free).
	SourceStatusline = "statusline"
	// SourceOAuth: GET /api/oauth/usage, polled by `warden pace poll`.
	SourceOAuth = "oauth"
	// SourceEstimate: estimated from local transcripts (marked estimated).
	SourceEstimate = "estimate"
	// SourceCodex: the rate limits Codex CLI records in its rollout (its
	// API's x-codex-* headers). They are OpenAI's limits, not Anthropic's:
	// only Codex sessions are paced by them.
	SourceCodex = "codex"
)

// Window is one window's figures in a snapshot.
type Window struct {
	// Util is the utilisation in percent; nil when the source gave none.
	Util *float64 `json:"util,omitempty"`
	// ResetsAt is when the window resets; nil when no window is active.
	ResetsAt *time.Time `json:"resets_at,omitempty"`
}

// Snapshot is one observation of both windows.
type Snapshot struct {
	ID        int64     `json:"id"`
	Time      time.Time `json:"time"` // when the figures were observed
	Source    string    `json:"source"`
	SessionID string    `json:"session_id,omitempty"`
	FiveHour  Window    `json:"five_hour"`
	SevenDay  Window    `json:"seven_day"`
}

// Age is how old the figures are at now.
func (s *Snapshot) Age(now time.Time) time.Duration { return now.Sub(s.Time) }

// Decision is a cached pacing decision: what every PostToolUse applies
// until it is stale.
type Decision struct {
	ID         int64     `json:"id"`
	Time       time.Time `json:"time"` // when it was computed
	SnapshotID int64     `json:"snapshot_id"`
	// Sessions is how many sessions were active (fair sharing).
	Sessions int `json:"sessions"`
	// DelaySeconds is the delay each tool call gets, after fair sharing.
	DelaySeconds int `json:"delay_seconds"`
	// AlgorithmDelay is the reference algorithm's delay for one session.
	AlgorithmDelay int    `json:"algorithm_delay"`
	Window         string `json:"window,omitempty"`
	Strategy       string `json:"strategy,omitempty"`
	// Detail is the JSON of the full working (package pace's record).
	Detail []byte `json:"detail,omitempty"`
}

// Lease is the state of the poll lease for one endpoint.
type Lease struct {
	Name   string
	Holder string
	// Next is the earliest time anyone may poll again (interval, backoff
	// or Retry-After).
	Next time.Time
	// Failures counts consecutive failed polls (exponential backoff).
	Failures int
	// Last is the last attempt and LastStatus its outcome ("ok", "http
	// 429", "http 401", or an error).
	Last       time.Time
	LastStatus string
	// Polls counts attempts, for tests and `warden pace --explain`.
	Polls int64
}

// Store is what pacing needs from the event store. *sqlite.Store
// implements it.
type Store interface {
	// AddSnapshot records figures and returns the row id.
	AddSnapshot(ctx context.Context, s *Snapshot) (int64, error)
	// LatestSnapshot is the newest snapshot of source ("" = any source);
	// nil when there is none.
	LatestSnapshot(ctx context.Context, source string) (*Snapshot, error)
	// SnapshotsSince lists snapshots newer than since, oldest first.
	SnapshotsSince(ctx context.Context, since time.Time) ([]Snapshot, error)
	// SaveDecision records a computed decision and returns its id.
	SaveDecision(ctx context.Context, d *Decision) (int64, error)
	// LatestDecision is the newest decision; nil when there is none.
	LatestDecision(ctx context.Context) (*Decision, error)
	// ActiveSessions lists the distinct sessions with an event since since
	// that have not ended (their latest event is not SessionEnd).
	ActiveSessions(ctx context.Context, since time.Time) ([]string, error)
	// TryLease takes the named lease when nobody may be polling (its Next
	// is not after now), setting Next to now+hold; it reports whether this
	// caller got it. Exactly one of any number of concurrent callers wins.
	TryLease(ctx context.Context, name, holder string, now time.Time, hold time.Duration) (bool, error)
	// FinishLease records the outcome of the holder's poll and when the
	// next one may happen.
	FinishLease(ctx context.Context, name, holder string, now, next time.Time, failures int, status string) error
	// LeaseState reads a lease; zero Lease (Name set) when never taken.
	LeaseState(ctx context.Context, name string) (Lease, error)
	// ClaimNotice records that the notice (window, reset, level) was shown;
	// it reports false when it had been already.
	ClaimNotice(ctx context.Context, window string, reset time.Time, level int, now time.Time) (bool, error)
	// PrunePacing deletes snapshots, decisions and notices older than
	// before.
	PrunePacing(ctx context.Context, before time.Time) (int64, error)
}
