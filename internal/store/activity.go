package store

import (
	"context"
	"time"
)

// The read models of the dashboard (internal/dashboard/storesource): what
// the event log says about sessions, rules and overridden blocks. The store
// computes them in its own query language; the dashboard only arranges them.

// SessionSummary is one session's activity in the event log.
type SessionSummary struct {
	ID     string
	Events int
	// Started and Updated are its oldest and newest event in the window.
	Started, Updated time.Time
	// Cwd is the session row's directory, else that of its newest event.
	Cwd       string
	LastEvent string
	// Subagents are the newest 20 subagents seen in the window.
	Subagents []SubagentSummary
}

// SubagentSummary is one subagent of a session: its newest event, and
// whether a SubagentStop was seen.
type SubagentSummary struct {
	ID      string
	Updated time.Time
	Stopped bool
}

// RuleDecisions counts one rule's events with one decision.
type RuleDecisions struct {
	Rule, Decision string
	// Mode is the highest mode recorded with them.
	Mode  string
	Count int
	Last  time.Time
}

// EventQuery selects events for browsing; zero fields match everything.
type EventQuery struct {
	// SessionPrefix matches session ids starting with it (pages show 8
	// characters).
	SessionPrefix string
	// Event, Tool and Decision match case-insensitively.
	Event, Tool, Decision string
	// AfterID > 0 returns the oldest Limit events after it (a stream must
	// not skip any); otherwise the newest Limit. Either way oldest first.
	AfterID int64
	Limit   int
}

// Override is a block followed by the call running anyway.
type Override struct {
	Block, Followed Event
}

// ActivityReader is the event log's read side the dashboard and the
// daemon's API use; both stores implement it with the same results
// (internal/store/storetest), so the dashboard can read the machine's own
// store or the pool's shared one.
type ActivityReader interface {
	// SessionSummaries lists each session with an event since since.
	SessionSummaries(ctx context.Context, since time.Time) ([]SessionSummary, error)
	// RuleDecisionCounts counts events naming a rule since since, per
	// rule and decision.
	RuleDecisionCounts(ctx context.Context, since time.Time) ([]RuleDecisions, error)
	// Overrides finds blocks since since whose call ran anyway within
	// within, newest first, at most 200.
	Overrides(ctx context.Context, since time.Time, within time.Duration) ([]Override, error)
	// SearchEvents lists events matching q, oldest first.
	SearchEvents(ctx context.Context, q EventQuery) ([]Event, error)
	// Event loads one event; nil when unknown.
	Event(ctx context.Context, id int64) (*Event, error)
}
