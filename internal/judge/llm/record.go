package llm

import (
	"context"
	"sync"

	"github.com/warden-dev/warden/internal/store"
)

// JudgementStore is where judge calls are recorded (internal/store/sqlite
// implements it).
type JudgementStore interface {
	RecordJudgementRow(ctx context.Context, j *store.Judgement) error
	Close() error
}

// Opener opens the store judge calls are recorded in. The binaries choose
// it (warden-helper judge and mcp: the local SQLite file).
type Opener func(ctx context.Context) (JudgementStore, error)

// StoreRecorder records judge calls in a store opened on the first record
// (a call that records nothing never opens it) and closed by Close.
type StoreRecorder struct {
	Open Opener

	mu  sync.Mutex
	st  JudgementStore
	err error
}

func (r *StoreRecorder) store(ctx context.Context) (JudgementStore, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.st == nil && r.err == nil {
		r.st, r.err = r.Open(ctx)
	}
	return r.st, r.err
}

// RecordJudgement implements Recorder.
func (r *StoreRecorder) RecordJudgement(ctx context.Context, rec Record) error {
	st, err := r.store(ctx)
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
func Row(rec Record) *store.Judgement {
	resp := rec.Response
	verdict := "fail"
	switch {
	case resp.FailedOpen:
		verdict = "open"
	case resp.Verdict.Pass:
		verdict = "pass"
	}
	return &store.Judgement{Time: rec.Time, SessionID: rec.Request.SessionID, ToolUseID: rec.Request.ToolUseID,
		Judge: rec.Request.Judge, Provider: resp.Provider, Model: resp.Model, TokensIn: resp.TokensIn,
		TokensOut: resp.TokensOut, CostUSD: resp.CostUSD, LatencyMS: resp.LatencyMS, Attempts: resp.Attempts,
		Verdict: verdict, Decision: resp.Verdict.Decision, Reason: resp.Verdict.Reason, Error: resp.Error,
		Lazy: rec.Request.Lazy}
}
