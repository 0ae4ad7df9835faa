package replay

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/judge"
)

// RuleToolApprove is the rule id the tool-approval judge decides with
// (internal/handlers records its denials so).
const RuleToolApprove = "judge:tool-approve"

// Judges runs the tool-approval judge again (validation.tool_approve) for
// the calls a policy leaves to it, as a hook would: a PreToolUse no rule
// asked about or denied, of a tool not in validation.low_risk_tools, with
// a usable provider. Only `warden replay --judges` sets it; without it no
// model is asked. Requests go through `warden-helper judge` with recording
// off, so the store is never written; each distinct request is asked once
// per replay, its answer kept in memory for the other side of the
// comparison and for identical calls.
type Judges struct {
	// Concurrency bounds the judge calls in flight (default 4).
	Concurrency int
	// Deadline bounds one call, its appeal included (default: the
	// config's llm.timeout_ms, twice for the appeal).
	Deadline time.Duration
	// Getenv and LookPath resolve the provider (nil: this process's).
	Getenv   func(string) string
	LookPath func(string) (string, error)
	// Ask answers a request (nil: judge.Ask, which runs warden-helper).
	Ask func(ctx context.Context, req *judge.Request) judge.Response

	mu    sync.Mutex
	memo  map[[32]byte]*answer
	stats JudgeStats
}

// JudgeStats is what the judges cost in one replay.
type JudgeStats struct {
	// Consulted is the calls a policy left to the judge (either side).
	Consulted int `json:"consulted"`
	// Requests is the judge calls made (an appeal counts), Reused those
	// answered from an identical earlier request, FailedOpen those that
	// could not be had (they pass, as in a hook).
	Requests   int     `json:"requests"`
	Reused     int     `json:"reused"`
	FailedOpen int     `json:"failed_open"`
	TokensIn   int64   `json:"tokens_in"`
	TokensOut  int64   `json:"tokens_out"`
	CostUSD    float64 `json:"cost_usd"`
}

type answer struct {
	done chan struct{}
	resp judge.Response
}

// consults reports whether a hook under cfg would ask the tool-approval
// judge about this call, given the policy's outcome for it.
func (js *Judges) consults(cfg *config.Config, ev string, tool string, o Outcome) bool {
	if js == nil || cfg == nil || !cfg.Validation.ToolApprove || ev != string(event.PreToolUse) || tool == "" {
		return false
	}
	if o.Decision == string(event.Ask) || o.Decision == string(event.Deny) {
		return false // a rule decided; the judge never sees it
	}
	return !judge.LowRisk(tool, cfg.Validation.LowRiskTools)
}

// provider is the provider a hook would use under cfg ("none" when the
// judges could not run).
func (js *Judges) provider(cfg *config.Config) string {
	p, _ := judge.ResolveProvider(cfg.LLM.Provider, js.Getenv, js.LookPath)
	return p
}

// request is the tool-approval request for a call, with its appeal: the
// prompts of the hook's, filled from the session's transcript when it is
// still on disk. Recording is off.
func (js *Judges) request(cfg *config.Config, provider string, tool string, input json.RawMessage, transcript string) *judge.Request {
	t, _ := judge.ReadTranscript(transcript)
	text := inputText(input, 6000)
	var prompts strings.Builder
	for i, p := range t.LastPrompts(5) {
		fmt.Fprintf(&prompts, "%d. %s\n", i+1, clip(p, 2000))
	}
	req := judge.NewRequest(cfg, provider, "tool-approve", judge.KindApprove, "haiku",
		judge.Render("tool-approve", judge.KindApprove, map[string]string{
			"prompts": prompts.String(), "assistant": strings.Join(t.AssistantTexts(2), "\n\n"),
			"tool": tool, "input": text,
		}))
	req.OnFail = judge.NewRequest(cfg, provider, "appeal", judge.KindAppeal, "sonnet",
		judge.Render("appeal", judge.KindAppeal, map[string]string{
			"denial": judge.DenialSlot, "tool": tool, "input": text, "transcript": "",
		}))
	req.Record, req.OnFail.Record = false, false
	if js.Deadline > 0 {
		req.DeadlineMS = int(js.Deadline.Milliseconds())
		req.OnFail.DeadlineMS = req.DeadlineMS
	}
	return req
}

// verdict asks (or recalls) req and turns the answer into an outcome:
// deny by judge:tool-approve, or the policy's outcome when the judge
// passed the call or could not be had.
func (js *Judges) verdict(ctx context.Context, req *judge.Request, policy Outcome) Outcome {
	resp := js.ask(ctx, req)
	if resp.FailedOpen || resp.Verdict.Pass {
		return policy
	}
	final := resp.Final()
	if final.Verdict.Pass {
		return policy // overturned on appeal
	}
	return Outcome{Decision: string(event.Deny), Rule: RuleToolApprove, Reason: final.Verdict.Reason}
}

func (js *Judges) ask(ctx context.Context, req *judge.Request) judge.Response {
	b, _ := json.Marshal(req)
	key := sha256.Sum256(b)
	js.mu.Lock()
	js.stats.Consulted++
	if a := js.memo[key]; a != nil {
		js.stats.Reused++
		js.mu.Unlock()
		<-a.done
		return a.resp
	}
	if js.memo == nil {
		js.memo = map[[32]byte]*answer{}
	}
	a := &answer{done: make(chan struct{})}
	js.memo[key] = a
	js.mu.Unlock()

	deadline := time.Duration(req.DeadlineMS) * time.Millisecond
	if req.OnFail != nil {
		deadline += time.Duration(req.OnFail.DeadlineMS) * time.Millisecond
	}
	cctx, cancel := context.WithTimeout(ctx, deadline+3*time.Second) // room for warden-helper to start
	ask := js.Ask
	if ask == nil {
		ask = judge.Ask
	}
	a.resp = ask(cctx, req)
	cancel()
	close(a.done)

	js.mu.Lock()
	defer js.mu.Unlock()
	for _, r := range []*judge.Response{&a.resp, a.resp.Appeal} {
		if r == nil {
			continue
		}
		if r.Attempts > 0 || !r.FailedOpen {
			js.stats.Requests++
		}
		if r.FailedOpen {
			js.stats.FailedOpen++
		}
		js.stats.TokensIn += r.TokensIn
		js.stats.TokensOut += r.TokensOut
		js.stats.CostUSD += r.CostUSD
	}
	return a.resp
}

// Stats is what the judges cost so far.
func (js *Judges) Stats() JudgeStats {
	js.mu.Lock()
	defer js.mu.Unlock()
	return js.stats
}

func (js *Judges) concurrency() int {
	if js.Concurrency > 0 {
		return js.Concurrency
	}
	return 4
}

// judgeTurn is one side of one job the judge must see.
type judgeTurn struct {
	out *Outcome
	req *judge.Request
}

// runJudges asks the judge for every side of every job a policy left to
// it, at most Concurrency at a time, and replaces those outcomes.
func runJudges(ctx context.Context, jobs []job, o Options) {
	js := o.Judges
	var turns []judgeTurn
	for i := range jobs {
		j := &jobs[i]
		if j.other {
			continue
		}
		sides := []struct {
			out *Outcome
			cfg *config.Config
		}{{&j.after, o.Candidate.engine(j.call.Project).cfg}}
		if o.Baseline != nil {
			sides = append(sides, struct {
				out *Outcome
				cfg *config.Config
			}{&j.before, o.Baseline.engine(j.call.Project).cfg})
		}
		for _, s := range sides {
			if !js.consults(s.cfg, j.ev.Event, j.call.Tool, *s.out) {
				continue
			}
			p := js.provider(s.cfg)
			if p == judge.ProviderNone {
				continue // the hook's judge would stay silent too
			}
			turns = append(turns, judgeTurn{out: s.out, req: js.request(s.cfg, p, j.call.Tool, j.call.Input, transcriptOf(j.ev.Raw))})
		}
	}
	sem := make(chan struct{}, js.concurrency())
	var wg sync.WaitGroup
	for i := range turns {
		t := &turns[i]
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			*t.out = js.verdict(ctx, t.req, *t.out)
		}()
	}
	wg.Wait()
}

// transcriptOf is the transcript path a recorded input names ("" when the
// record kept only the call).
func transcriptOf(raw json.RawMessage) string {
	var p struct {
		Transcript string `json:"transcript_path"`
	}
	_ = json.Unmarshal(raw, &p)
	return p.Transcript
}

// inputText is tool_input for a prompt, as the hook renders it: indented
// JSON, clipped.
func inputText(raw json.RawMessage, limit int) string {
	var b bytes.Buffer
	s := string(raw)
	if json.Indent(&b, raw, "", "  ") == nil {
		s = b.String()
	}
	if len(s) > limit {
		s = s[:limit] + "…"
	}
	return s
}
