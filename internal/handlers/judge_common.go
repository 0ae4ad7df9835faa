package handlers

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/pipeline"
)

// Shared plumbing of the LLM judges (judge_*.go). The hook process never
// talks to a model: it decides what it can deterministically and runs
// warden-helper judge (internal/judge.Ask) for the rest, failing open.

// judgeProvider resolves llm.provider ("auto" looks claude up on PATH and
// the Anthropic key in the environment).
func judgeProvider(c *pipeline.Call) string {
	p, _ := judge.ResolveProvider(c.Config.LLM.Provider, c.Getenv, c.Caller().LookPath)
	return p
}

// judgesUsable: a provider exists and warden-helper is installed. Judges
// that are switched on but unusable stay silent apart from one notice.
func judgesUsable(c *pipeline.Call) (provider string, ok bool, notice string) {
	provider = judgeProvider(c)
	if provider == judge.ProviderNone {
		return provider, false, ""
	}
	if _, err := judge.FindBinaryFor(c.Caller()); err != nil {
		js := judge.LoadState(c.State)
		if !js.MissingWarned {
			js.MissingWarned = true
			js.Save(c.State)
			notice = "warden: LLM judges are on but " + err.Error() + "; they are skipped (fail open). `warden doctor` shows the fix."
		}
		return provider, false, notice
	}
	return provider, true, ""
}

// askJudge runs one request for this call.
func askJudge(ctx context.Context, c *pipeline.Call, req *judge.Request) judge.Response {
	req.SessionID, req.ToolUseID = c.Input.SessionID, c.Input.ToolUseID
	if req.OnFail != nil {
		req.OnFail.SessionID, req.OnFail.ToolUseID = req.SessionID, req.ToolUseID
	}
	return judge.Ask(ctx, req)
}

// setting reads a store setting ("" when the store is unusable).
func setting(ctx context.Context, c *pipeline.Call, key string) string {
	if c.Store == nil {
		return ""
	}
	v, _, _ := c.Store.Setting(ctx, key)
	return v
}

// sessionPrompts are the user's prompts of the session, oldest first: the
// transcript's, plus the last prompt warden saw if the transcript lags it.
func sessionPrompts(t *judge.Transcript, js *judge.State, n int) []string {
	ps := t.LastPrompts(n)
	if lp := strings.TrimSpace(js.LastPrompt); lp != "" && (len(ps) == 0 || strings.TrimSpace(ps[len(ps)-1]) != lp) {
		ps = append(ps, lp)
		if len(ps) > n {
			ps = ps[len(ps)-n:]
		}
	}
	return ps
}

func noticeOnly(notice string) event.Decision {
	return event.Decision{SystemMessage: notice}
}

// rawString reads a top-level string field of the hook input that Input
// does not model (agent_transcript_path…).
func rawString(in *event.Input, key string) string {
	return jsonString(in.Raw, key)
}

func jsonString(raw []byte, key string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(m[key], &s) != nil {
		return ""
	}
	return s
}
