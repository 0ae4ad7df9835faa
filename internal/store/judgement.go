package store

import "time"

// Judgement is one LLM judge call (migration 0007).
type Judgement struct {
	ID        int64     `json:"id"`
	Time      time.Time `json:"time"`
	SessionID string    `json:"session_id,omitempty"`
	ToolUseID string    `json:"tool_use_id,omitempty"`
	Judge     string    `json:"judge"`
	Provider  string    `json:"provider"`
	Model     string    `json:"model,omitempty"`
	TokensIn  int64     `json:"tokens_in"`
	TokensOut int64     `json:"tokens_out"`
	CostUSD   float64   `json:"cost_usd"`
	LatencyMS int64     `json:"latency_ms"`
	Attempts  int       `json:"attempts"`
	// Verdict is pass, fail or open (the call failed open).
	Verdict  string `json:"verdict"`
	Decision string `json:"decision,omitempty"`
	Reason   string `json:"reason,omitempty"`
	Error    string `json:"error,omitempty"`
	Lazy     bool   `json:"lazy,omitempty"`
}

// JudgementFilter selects judgements; zero fields match everything.
type JudgementFilter struct {
	SessionID string
	Judge     string
	Since     time.Time
	// Limit returns the newest Limit rows (oldest first); 0: all.
	Limit int
}

// PendingVerdict is a lazy judge run: stored by the hook, run by
// `warden-helper judge run <id>`, delivered by the next PreToolUse when it failed.
type PendingVerdict struct {
	ID        int64
	SessionID string
	Created   time.Time
	Done      time.Time
	// State: pending, passed, failed, delivered, error.
	State   string
	Judge   string
	Tool    string
	Target  string
	Request []byte
	Reason  string
}
