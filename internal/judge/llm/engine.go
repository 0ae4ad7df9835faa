package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/judge"
)

// Engine runs judge requests against a provider.
type Engine struct {
	Provider Provider
	Recorder Recorder
	// Sleep waits for a Retry-After (tests replace it).
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock (tests replace it).
	Now func() time.Time
}

// maxRetryAfter caps how long a call waits on the last model's Retry-After.
const maxRetryAfter = 5 * time.Second

// defaultMaxTokens for a verdict: a decision and a few sentences, or a
// review's feedback.
const defaultMaxTokens = 1024

// Ask runs one request, its OnFail follow-up when the verdict fails, and
// records each. It never returns an error: what cannot be judged fails open.
func (e *Engine) Ask(ctx context.Context, req *judge.Request) judge.Response {
	resp := e.askOne(ctx, req)
	if req.OnFail != nil && !resp.Verdict.Pass && !resp.FailedOpen {
		follow := *req.OnFail
		follow.SessionID, follow.ToolUseID, follow.Lazy, follow.Record = req.SessionID, req.ToolUseID, req.Lazy, req.Record
		// The follow-up (an appeal) hears what it is appealing against.
		follow.Prompt = judge.FillDenial(follow.Prompt, resp.Verdict.Reason)
		ap := e.askOne(ctx, &follow)
		if ap.FailedOpen {
			// An appeal that cannot be heard leaves the first verdict.
			ap.Verdict = resp.Verdict
		}
		resp.Appeal = &ap
	}
	return resp
}

func (e *Engine) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

func (e *Engine) askOne(ctx context.Context, req *judge.Request) judge.Response {
	start := e.now()
	resp := e.run(ctx, req)
	resp.Judge, resp.LatencyMS = req.Judge, e.now().Sub(start).Milliseconds()
	if resp.Provider == "" {
		resp.Provider = e.Provider.Name()
	}
	if resp.CostUSD == 0 {
		resp.CostUSD = EstimateCost(resp.Model, resp.TokensIn, resp.TokensOut)
	}
	if e.Recorder != nil && req.Record {
		// Recording gets its own short deadline: the call's may be spent.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
		_ = e.Recorder.RecordJudgement(rctx, Record{Time: start, Request: req, Response: resp})
		cancel()
	}
	return resp
}

func (e *Engine) run(ctx context.Context, req *judge.Request) judge.Response {
	if e.Provider == nil || e.Provider.Name() == judge.ProviderNone {
		return judge.FailOpen(req, "no LLM provider: judges are off")
	}
	if len(req.Models) == 0 {
		return judge.FailOpen(req, "no model configured for tier "+req.Tier)
	}
	deadline := time.Duration(req.DeadlineMS) * time.Millisecond
	if deadline <= 0 {
		deadline = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	maxTok := req.MaxTokens
	if maxTok <= 0 {
		maxTok = defaultMaxTokens
	}

	var resp judge.Response
	resp.Provider = e.Provider.Name()
	msgs := []Message{{Role: "user", Text: req.Prompt}}
	formatRetries, waited := 0, false
	var lastErr error
	for i := 0; i < len(req.Models); {
		model := req.Models[i]
		resp.Attempts++
		comp, err := e.Provider.Complete(ctx, Call{Model: model, System: req.System, Messages: msgs, MaxTokens: maxTok})
		if err != nil {
			lastErr = err
			if ctx.Err() != nil {
				return failOpen(req, resp, fmt.Sprintf("deadline of %v passed (%v)", deadline, err))
			}
			var ae *APIError
			if errors.As(err, &ae) && ae.Overloaded() {
				if i+1 < len(req.Models) {
					resp.Fallbacks = append(resp.Fallbacks, fmt.Sprintf("%s: %v", model, ae))
					i++
					continue
				}
				if !waited && ae.RetryAfter > 0 && ae.RetryAfter <= maxRetryAfter {
					if dl, ok := ctx.Deadline(); !ok || time.Until(dl) > ae.RetryAfter {
						waited = true
						if e.sleep(ctx, ae.RetryAfter) == nil {
							continue
						}
					}
				}
				return failOpen(req, resp, "every model is overloaded or rate-limited: "+err.Error())
			}
			// Another failure (5xx, a reply that is not JSON): try the next
			// model, else fail open.
			if i+1 < len(req.Models) {
				resp.Fallbacks = append(resp.Fallbacks, fmt.Sprintf("%s: %v", model, err))
				i++
				continue
			}
			return failOpen(req, resp, err.Error())
		}
		resp.Model = firstNonEmpty(comp.Model, model)
		resp.TokensIn += comp.TokensIn
		resp.TokensOut += comp.TokensOut
		resp.CostUSD += comp.CostUSD
		v, perr := judge.Parse(req.Kind, comp.Text)
		if perr == nil {
			resp.Verdict = v
			return resp
		}
		if formatRetries >= req.FormatRetries {
			return failOpen(req, resp, fmt.Sprintf("no verdict after %d corrective retries; last reply: %q", formatRetries, clip(comp.Text, 200)))
		}
		formatRetries++
		msgs = append(msgs, Message{Role: "assistant", Text: comp.Text}, Message{Role: "user", Text: Corrective(req.Kind)})
	}
	return failOpen(req, resp, fmt.Sprint(lastErr))
}

// Corrective is the instruction sent after a reply that is not a verdict.
func Corrective(k judge.Kind) string {
	return "Your reply did not follow the required format, so it could not be read. " + k.Format()
}

func (e *Engine) sleep(ctx context.Context, d time.Duration) error {
	if e.Sleep != nil {
		return e.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func failOpen(req *judge.Request, so judge.Response, why string) judge.Response {
	r := judge.FailOpen(req, why)
	r.Provider, r.Model, r.TokensIn, r.TokensOut, r.CostUSD = so.Provider, so.Model, so.TokensIn, so.TokensOut, so.CostUSD
	r.Attempts, r.Fallbacks = so.Attempts, so.Fallbacks
	return r
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
