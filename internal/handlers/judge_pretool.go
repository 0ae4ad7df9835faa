package handlers

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/store"
)

// The pre-tool judges: workaround detection and tool approval
// (validation.tool_approve, judge_approve.go), delivery of failed lazy
// verdicts, and intent validation (validation.intent). The handler runs
// after the deterministic ones (pipeline.OrderJudge): a call they denied
// costs no model call and keeps a pending verdict for the next call
// (behind their denial its reason would be lost), but the denial counts
// toward workaround detection. Intent stage 1 decides here, deterministically;
// stage 2 (an opus review with sonnet fallback) runs through warden-helper judge,
// strictly (the hook waits) when StrictReason says so, else lazily: the
// call is allowed, `warden-helper judge run <id>` is started detached (Setsid,
// stdio on /dev/null), and a failed verdict denies the session's next call
// once. With every pre-tool judge off this handler returns at once.
func judgePretoolHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "judge-pretool",
		Events: []event.Name{event.PreToolUse, event.PostToolUseFailure},
		Order:  pipeline.OrderJudge,
		Run:    runJudgePreTool,
	}
}

// preToolJudgesOn: a judge that needs this handler is on. The drift and
// error-ack judges (judge-drift, judge-errorack) need it to deliver their
// lazy verdicts, and error-ack for failures to make the next call strict.
func preToolJudgesOn(c *pipeline.Call) bool {
	v := c.Config.Validation
	return v.Intent || v.ToolApprove || v.ErrorAck || v.PlanDrift || v.StyleDrift || v.ClaudeMD
}

func runJudgePreTool(ctx context.Context, c *pipeline.Call) (event.Decision, error) {
	if !preToolJudgesOn(c) || judge.Nested(c.Getenv) {
		return event.Decision{}, nil
	}
	js := judge.LoadState(c.State)
	if c.Event == event.PostToolUseFailure {
		js.AfterTrouble = true
		js.LastError, js.LastErrorPrompt = clipText(c.Input.Error, 2000), js.Prompts
		js.Save(c.State)
		return event.Decision{}, nil
	}
	prior := c.PriorDecision()
	ap := newApproval(c)
	defer ap.save(c)
	if d, ok := ap.workaround(js, prior); ok {
		ap.denied()
		js.AfterTrouble = true
		js.Save(c.State)
		return d, nil
	}
	if prior.Verdict == event.Deny {
		ap.denied()
		js.AfterTrouble = true
		js.Save(c.State)
		return event.Decision{}, nil
	}
	if c.Store != nil && c.Input.SessionID != "" {
		if p, err := c.Store.TakeFailedVerdict(ctx, c.Input.SessionID, c.Now.Add(-judge.PendingTTL)); err == nil && p != nil {
			js.AfterTrouble = true
			js.Save(c.State)
			return event.Decision{Verdict: event.Deny, RuleID: "judge:" + p.Judge, Mode: "deny",
				Reason: fmt.Sprintf("warden %s (a background review of your earlier %s of %s) failed: %s\nFix that first; this call was not run.",
					p.Judge, p.Tool, p.Target, p.Reason)}, nil
		}
	}
	d, err := intentCheck(ctx, c, js)
	judged := false
	if d.Verdict != event.Deny {
		var ta event.Decision
		ta, judged = toolApprove(ctx, c, js, ap, prior)
		d = event.Resolve([]event.Decision{d, ta})
	}
	if d.Verdict == event.Deny {
		ap.denied()
		js.AfterTrouble = true
	} else if mut, _ := mutationOf(c); mut || judged {
		js.AfterTrouble = false
	}
	js.Save(c.State)
	return d, err
}

func mutationOf(c *pipeline.Call) (bool, string) {
	if judge.FileTools[c.Input.ToolName] {
		return true, c.Input.ToolName
	}
	return false, ""
}

func intentCheck(ctx context.Context, c *pipeline.Call, js *judge.State) (event.Decision, error) {
	cfg := c.Config.Validation
	in := c.Input
	if !cfg.Intent || !judge.FileTools[in.ToolName] {
		return event.Decision{}, nil
	}
	file := in.ToolString("file_path")
	if file == "" {
		file = in.ToolString("notebook_path")
	}
	if file == "" || !judge.IsSource(file, cfg.SourceExtensions) {
		return event.Decision{}, nil
	}
	t, _ := judge.ReadTranscript(in.TranscriptPath)
	prompts := sessionPrompts(t, js, 5)
	res := judge.CheckIntent(judge.IntentInput{FilePath: file, ProjectDir: c.ProjectDir,
		AssistantTexts: t.AssistantTexts(2), UserPrompts: prompts, CorePaths: cfg.CorePaths})
	firstAfterPrompt := js.JudgedPrompt != js.Prompts
	js.JudgedPrompt = js.Prompts
	if !res.OK {
		return event.Decision{Verdict: event.Deny, RuleID: "judge:intent", Mode: "deny", Reason: res.Problem}, nil
	}
	if !cfg.IntentReview {
		return event.Decision{}, nil
	}
	provider, usable, notice := judgesUsable(c)
	if !usable {
		return noticeOnly(notice), nil
	}
	vars := map[string]string{
		"prompts": numberedPrompts(prompts),
		"intent":  fmt.Sprintf("FILE: %s\nCHANGES: %s\nGOAL: %s\nTests: %s", res.Intent.File, res.Intent.Changes, res.Intent.Goal, firstNonEmptyStr(res.Intent.Tests, res.Intent.Quote)),
		"tool":    in.ToolName, "file": file,
		"change": judge.ChangeText(in.ToolName, in.ToolInput, 20000),
	}
	req := judge.NewRequest(c.Config, provider, "intent-review", judge.KindReview, "opus",
		judge.Render("intent-review", judge.KindReview, vars))
	strict := judge.StrictReason(judge.StrictInput{ToolCount: c.State.ToolCount, FirstAfterPrompt: firstAfterPrompt,
		AfterTrouble: js.AfterTrouble, ChangedLines: judge.ChangedLines(in.ToolName, in.ToolInput),
		PermissionMode: in.PermissionMode, FilePath: file, ProjectDir: c.ProjectDir, ClaudeDir: c.Paths().ClaudeDir()})
	if strict == "" && c.Config.Validation.Lazy {
		if startLazy(ctx, c, req, in.ToolName, displayRel(file, c.ProjectDir)) {
			return event.Decision{}, nil
		}
	}
	resp := askJudge(ctx, c, req)
	if resp.FailedOpen || resp.Verdict.Pass {
		return event.Decision{}, nil
	}
	return event.Decision{Verdict: event.Deny, RuleID: "judge:intent-review", Mode: "deny",
		Reason: "warden code review of this change against your declared intent:\n" + resp.Verdict.Reason}, nil
}

// startLazy stores req as a pending verdict and starts warden-helper judge on it,
// detached. False when that is impossible (the caller then judges strictly).
func startLazy(ctx context.Context, c *pipeline.Call, req *judge.Request, tool, target string) bool {
	ps := c.Store
	if ps == nil || c.Input.SessionID == "" {
		return false
	}
	req.SessionID, req.ToolUseID, req.Lazy = c.Input.SessionID, c.Input.ToolUseID, true
	b, err := json.Marshal(req)
	if err != nil {
		return false
	}
	id, err := ps.AddPending(ctx, &store.PendingVerdict{SessionID: c.Input.SessionID, Created: c.Now, Judge: req.Judge,
		Tool: tool, Target: target, Request: b})
	if err != nil {
		return false
	}
	if err := judge.StartLazy(ctx, id); err != nil {
		_ = ps.FinishPending(ctx, id, "error", err.Error())
		return false
	}
	return true
}

func numberedPrompts(ps []string) string {
	out := ""
	for i, p := range ps {
		out += fmt.Sprintf("%d. %s\n", i+1, clipText(p, 2000))
	}
	return out
}

func firstNonEmptyStr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func displayRel(path, project string) string {
	if project != "" && len(path) > len(project)+1 && path[:len(project)+1] == project+"/" {
		return path[len(project)+1:]
	}
	return path
}
