package handlers

import (
	"context"

	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/pipeline"
)

// checkOutcome is what an OK/BLOCK judge run decided for this call.
type checkOutcome struct {
	// Blocked: deny now with Reason (the judge's BLOCK reason).
	Blocked bool
	Reason  string
	// Notice is a one-time message when judges are on but unusable.
	Notice string
}

// runCheckJudge asks an OK/BLOCK judge (the drift judges, error-ack) about
// this call, the way intent review is asked: strictly when
// judge.StrictReason says so or validation.lazy is off (the hook waits; a
// BLOCK denies now), else lazily (the call is allowed, warden-helper judge runs
// detached, and judge-pretool delivers a BLOCK on the session's next
// PreToolUse). No provider, a missing warden-helper, a provider error or
// the deadline: allowed (fail open).
func runCheckJudge(ctx context.Context, c *pipeline.Call, req *judge.Request, strict judge.StrictInput, target string) checkOutcome {
	provider, usable, notice := judgesUsable(c)
	if !usable {
		return checkOutcome{Notice: notice}
	}
	req.Provider = provider
	if judge.StrictReason(strict) == "" && c.Config.Validation.Lazy {
		if startLazy(ctx, c, req, c.Input.ToolName, target) {
			return checkOutcome{}
		}
	}
	resp := askJudge(ctx, c, req)
	if resp.FailedOpen || resp.Verdict.Pass {
		return checkOutcome{}
	}
	return checkOutcome{Blocked: true, Reason: resp.Verdict.Reason}
}

// driftStrict is the strict-or-lazy input of a drift judge for this call.
func driftStrict(c *pipeline.Call, js *judge.State, file string) judge.StrictInput {
	in := c.Input
	return judge.StrictInput{ToolCount: c.State.ToolCount, FirstAfterPrompt: js.DriftPrompt != js.Prompts,
		AfterTrouble: js.AfterTrouble, ChangedLines: judge.ChangedLines(in.ToolName, in.ToolInput),
		PermissionMode: in.PermissionMode, FilePath: file, ProjectDir: c.ProjectDir, ClaudeDir: c.Paths().ClaudeDir()}
}
