package llm

import (
	"context"
	"sync"

	"github.com/warden-dev/warden/internal/store/sqlite"
)

// StoreRecorder records judge calls in the SQLite store, opened on the
// first record (a call that records nothing never opens it).
type StoreRecorder struct {
	Path string

	mu  sync.Mutex
	st  *sqlite.Store
	err error
}

// Store opens (once) and returns the store.
func (r *StoreRecorder) Store(ctx context.Context) (*sqlite.Store, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.st == nil && r.err == nil {
		r.st, r.err = sqlite.Open(ctx, r.Path)
	}
	return r.st, r.err
}

// RecordJudgement implements Recorder.
func (r *StoreRecorder) RecordJudgement(ctx context.Context, rec Record) error {
	st, err := r.Store(ctx)
	if err != nil {
		return err
	}
	return st.RecordJudgementRow(ctx, Row(rec))
}

// Close closes the store if it was opened.
func (r *StoreRecorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.st != nil {
		return r.st.Close()
	}
	return nil
}

// Row turns a record into a store row.
func Row(rec Record) *sqlite.Judgement {
	resp := rec.Response
	verdict := "fail"
	switch {
	case resp.FailedOpen:
		verdict = "open"
	case resp.Verdict.Pass:
		verdict = "pass"
	}
	return &sqlite.Judgement{Time: rec.Time, SessionID: rec.Request.SessionID, ToolUseID: rec.Request.ToolUseID,
		Judge: rec.Request.Judge, Provider: resp.Provider, Model: resp.Model, TokensIn: resp.TokensIn,
		TokensOut: resp.TokensOut, CostUSD: resp.CostUSD, LatencyMS: resp.LatencyMS, Attempts: resp.Attempts,
		Verdict: verdict, Decision: resp.Verdict.Decision, Reason: resp.Verdict.Reason, Error: resp.Error,
		Lazy: rec.Request.Lazy}
}
