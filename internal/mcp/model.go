package mcp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/judge/llm"
)

// errUnavailable marks a judge that could not answer: no provider, a
// timeout, every model failing. The chain tools never read it as a pass.
var errUnavailable = errors.New("judge unavailable")

// unavailable wraps why into errUnavailable.
func unavailable(format string, a ...any) error {
	return fmt.Errorf("%w: %s", errUnavailable, fmt.Sprintf(format, a...))
}

// ask is one plain model call of a judge: the check summary, the commit
// message, validate_intent, and confirm when the provider is claude -p.
type ask struct {
	Judge     string // for the record: mcp-check, mcp-commit-message, …
	Tier      string
	System    string
	Prompt    string
	Deadline  time.Duration
	MaxTokens int
}

// complete asks the tier's models in turn (the judges' fallback chain)
// and returns the first answer with what it cost.
func (s *server) complete(ctx context.Context, a ask) (string, judge.Response, error) {
	prov, why := s.provider()
	resp := judge.Response{Judge: a.Judge, Provider: prov}
	if prov == judge.ProviderNone {
		return "", resp, unavailable("no LLM provider (%s)", why)
	}
	models := judge.Chain(s.o.Config, a.Tier)
	if len(models) == 0 {
		return "", resp, unavailable("no model configured for tier %s", a.Tier)
	}
	ctx, cancel := context.WithTimeout(ctx, a.Deadline)
	defer cancel()
	p := llm.New(prov, s.o.Getenv)
	start := time.Now()
	var last error
	for _, m := range models {
		resp.Attempts++
		c, err := p.Complete(ctx, llm.Call{Model: m, System: a.System, MaxTokens: max(a.MaxTokens, 512),
			Messages: []llm.Message{{Role: "user", Text: a.Prompt}}})
		if err == nil {
			resp.Model, resp.TokensIn, resp.TokensOut = firstNonEmpty(c.Model, m), c.TokensIn, c.TokensOut
			resp.CostUSD = c.CostUSD
			if resp.CostUSD == 0 {
				resp.CostUSD = llm.EstimateCost(resp.Model, c.TokensIn, c.TokensOut)
			}
			resp.LatencyMS = time.Since(start).Milliseconds()
			return c.Text, resp, nil
		}
		last = err
		if ctx.Err() != nil {
			return "", resp, unavailable("no answer within %v", a.Deadline)
		}
		resp.Fallbacks = append(resp.Fallbacks, fmt.Sprintf("%s: %v", m, err))
	}
	return "", resp, unavailable("every model failed: %v", last)
}

// record saves a judge call in the store's judgements table (`warden
// judge log` lists it); failing to record never fails the tool.
func (s *server) record(a ask, resp judge.Response) {
	if s.o.Judgements == nil {
		return
	}
	rec := &llm.StoreRecorder{Open: s.o.Judgements}
	defer rec.Close()
	req := &judge.Request{Judge: a.Judge, Kind: judge.KindCheck, Tier: a.Tier, Provider: resp.Provider,
		Prompt: a.Prompt, Record: true}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_ = rec.RecordJudgement(ctx, llm.Record{Time: time.Now().Add(-time.Duration(resp.LatencyMS) * time.Millisecond),
		Request: req, Response: resp})
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
