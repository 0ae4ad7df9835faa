// Package llm is the model-facing half of warden's judges: providers (the
// Anthropic Messages API through the official SDK, the claude -p CLI, none),
// the fallback chain on 429/529/overload, the corrective retries when a
// reply is not a verdict, the per-call deadline and the record of every
// call. Only warden-helper (internal/helper/cmds, internal/mcp) links it: the SDK and net/http must never
// reach the hook process.
package llm

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/warden-dev/warden/internal/judge"
)

// Message is one turn of the conversation sent to a model.
type Message struct {
	Role string // "user" or "assistant"
	Text string
}

// Call is one model request.
type Call struct {
	Model     string
	System    string
	Messages  []Message
	MaxTokens int
}

// Completion is a model's reply.
type Completion struct {
	Text      string
	Model     string
	TokensIn  int64
	TokensOut int64
	// CostUSD is the provider's own figure when it reports one (claude -p);
	// 0 means estimate from the price table.
	CostUSD float64
}

// Provider asks a model.
type Provider interface {
	Name() string
	Complete(ctx context.Context, c Call) (Completion, error)
}

// APIError is a provider error with an HTTP-like status.
type APIError struct {
	Status     int
	Type       string
	Message    string
	RetryAfter time.Duration
}

func (e *APIError) Error() string {
	s := fmt.Sprintf("%d", e.Status)
	if e.Type != "" {
		s += " " + e.Type
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Overloaded reports a rate limit or overload: the next model may answer.
func (e *APIError) Overloaded() bool {
	return e.Status == 429 || e.Status == 529 || e.Status == 503 ||
		e.Type == "overloaded_error" || e.Type == "rate_limit_error"
}

// None is the provider of llm.provider = "none": every call fails open.
type None struct{}

func (None) Name() string { return judge.ProviderNone }
func (None) Complete(context.Context, Call) (Completion, error) {
	return Completion{}, errors.New("no LLM provider configured")
}

// Record is one judge call as recorded in the store.
type Record struct {
	Time     time.Time
	Request  *judge.Request
	Response judge.Response
}

// Recorder saves records; nil records nothing.
type Recorder interface {
	RecordJudgement(ctx context.Context, r Record) error
}
