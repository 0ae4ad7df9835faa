// Package store defines warden's event store: the record of every hook event
// and decision, per-session state and settings, and the two roles a store
// plays (roles.go): Local, this machine's store (internal/store/sqlite), and
// Shared, a pool's (internal/store/postgres, or SQLite for a daemon alone).
// internal/store/storetest holds the stores to each role's contract.
package store

import (
	"context"
	"encoding/json"
	"time"
)

// Event is one hook invocation as recorded.
type Event struct {
	ID        int64     `json:"id"`
	Time      time.Time `json:"time"`
	SessionID string    `json:"session_id"`
	Event     string    `json:"event"`
	Harness   string    `json:"harness"`
	Tool      string    `json:"tool,omitempty"`
	ToolUseID string    `json:"tool_use_id,omitempty"`
	AgentID   string    `json:"agent_id,omitempty"`
	Cwd       string    `json:"cwd,omitempty"`
	Path      string    `json:"path,omitempty"`
	Decision  string    `json:"decision"`
	Rule      string    `json:"rule,omitempty"`
	Mode      string    `json:"mode,omitempty"`
	Reason    string    `json:"reason,omitempty"`
	Error     string    `json:"error,omitempty"`
	LatencyUS int64     `json:"latency_us"`
	// SleptMS is how long the hook slept on purpose (pacing); LatencyUS
	// includes it.
	SleptMS    int64  `json:"slept_ms,omitempty"`
	DurationMS *int64 `json:"duration_ms,omitempty"`
	// File tools (Write, Edit, MultiEdit, NotebookEdit): SHA-256 (hex) of
	// the file before and after the change, and the lines it added and
	// removed; empty or nil when unknown.
	HashBefore   string `json:"hash_before,omitempty"`
	HashAfter    string `json:"hash_after,omitempty"`
	LinesAdded   *int64 `json:"lines_added,omitempty"`
	LinesRemoved *int64 `json:"lines_removed,omitempty"`
	// Raw is the hook input, kept only with capture = true (redacted).
	Raw json.RawMessage `json:"raw,omitempty"`
	// TaskID is the task of the agent whose hook recorded the event
	// (WARDEN_TASK_ID), "" outside warden's agents.
	TaskID string `json:"task_id,omitempty"`
	// Detail is the one field of the input an agent's state depends on:
	// notification_type, SessionStart's source, SessionEnd's reason,
	// StopFailure's error.
	Detail string `json:"detail,omitempty"`
	// PrevHash and Hash link the row into the audit chain (ChainHash).
	PrevHash string `json:"prev_hash,omitempty"`
	Hash     string `json:"hash,omitempty"`
	// Spans are the handlers' timings (internal/hookspan), kept while
	// otel.traces is on for the trace export; not part of the chain hash.
	Spans string `json:"spans,omitempty"`
}

// Session is one Claude Code session's saved state.
type Session struct {
	ID      string          `json:"id"`
	Cwd     string          `json:"cwd"`
	Started time.Time       `json:"started"`
	Updated time.Time       `json:"updated"`
	State   json.RawMessage `json:"state"`
	// Sig is the HMAC of the state (internal/session), checked on load.
	Sig string `json:"sig,omitempty"`
}

// Filter selects events; zero fields match everything.
type Filter struct {
	SessionID string
	Event     string
	TaskID    string
	// Harness: only events of this agent CLI (claude, codex, gemini, copilot).
	Harness string
	Since   time.Time
	// AfterID returns only events with a larger id (for following).
	AfterID int64
	// Limit caps the result; the newest Limit events are returned, oldest
	// first. 0 means no limit.
	Limit int
}

// Store is the event record's core: what every hook writes and reads.
// It is part of the Local role (roles.go).
type Store interface {
	// RecordHook saves one hook run: the event row, and the session's state
	// when sess is not nil, in one transaction.
	RecordHook(ctx context.Context, ev *Event, sess *Session) error
	// SaveSession saves a session's state alone (a hook that sleeps saves
	// its state first, so it can release the session before sleeping).
	SaveSession(ctx context.Context, sess *Session) error
	// Session loads a session; nil and no error when it is unknown.
	Session(ctx context.Context, id string) (*Session, error)
	// Events lists events matching f, oldest first.
	Events(ctx context.Context, f Filter) ([]Event, error)
	// DecisionCounts counts events since a time, by decision.
	DecisionCounts(ctx context.Context, since time.Time) (map[string]int, error)
	// Setting reads a setting; ok is false when it is not set.
	Setting(ctx context.Context, key string) (value string, ok bool, err error)
	// SetSetting writes a setting.
	SetSetting(ctx context.Context, key, value string) error
	// Prune deletes events and sessions older than before.
	Prune(ctx context.Context, before time.Time) (events, sessions int64, err error)
	// VerifyChain walks the audit chain from the oldest row and returns how
	// many rows it checked and the first break, if any.
	VerifyChain(ctx context.Context) (checked int64, brk *ChainBreak, err error)
	// Check verifies the store is usable: integrity and schema version.
	Check(ctx context.Context) error
	// Close releases the store.
	Close() error
}

// Settings keys shared by the CLI and the hook runtime.
const (
	// SettingEnabled is "false" when `warden off` switched every handler off.
	SettingEnabled = "enabled"
	// SettingLastPrune is the unix time of the last retention cleanup.
	SettingLastPrune = "last_prune"
	// SettingChainAnchor is "<id> <hash>" of the newest row retention
	// deleted: where the audit chain of the remaining rows starts.
	SettingChainAnchor = "audit_anchor"
	// SettingTamper holds tampering warden detected (a session state whose
	// signature failed) until the next SessionStart shows it.
	SettingTamper = "tamper_pending"
	// SettingShipEvents is the id of the newest local event the shipper
	// (internal/store/ship) copied to the shared store, and
	// SettingShipSessions "<updated_us> <id>" of the newest session state:
	// rows past them are not shipped yet, and retention keeps them while a
	// shared store is configured (sqlite.Store.PruneShipped).
	SettingShipEvents   = "ship.events"
	SettingShipSessions = "ship.sessions"
	// SettingWALRestart is the unix microseconds of the keeper's last WAL
	// restart (sqlite.Pin.RestartWAL): a write of its own, so the restart
	// and its fsync are not paid by the next hook.
	SettingWALRestart = "keeper.wal_restart"
	// SettingShipPermanent is "1" while the shipper's failure is one
	// retrying cannot mend (a refused login, a missing database).
	SettingShipPermanent = "ship.permanent"
)
