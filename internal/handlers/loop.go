package handlers

import (
	"context"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/loop"
	"github.com/warden-dev/warden/internal/pipeline"
)

// The iteration loop (`warden loop start`, internal/loop): at every Stop of
// a session in a project with an active loop, the criteria are checked —
// the --check commands, then the criteria text by the judge when one is
// usable (without a judge the checks stand for the criteria, and with no
// checks either Claude must declare them met, loop.DoneMarker) — the
// iteration is counted, and the stop is blocked with what is still
// missing. It ends when everything holds or at the maximum, with a summary
// for the user. Blocks even when stop_hook_active: iterating is the point,
// and the maximum bounds it. Nothing runs without an active loop (one
// store read), and nothing inside a judge's nested claude.
func loopHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "loop",
		Events: []event.Name{event.Stop},
		Run:    runLoop,
	}
}

// loopSaveReserve is kept from the Stop budget for saving the loop.
const loopSaveReserve = 2 * time.Second

func runLoop(ctx context.Context, c *pipeline.Call) (event.Decision, error) {
	if c.Store == nil || judge.Nested(c.Getenv) || c.ProjectDir == "" {
		return event.Decision{}, nil
	}
	l, err := loop.Load(ctx, c.Store, c.ProjectDir)
	if err != nil || l == nil || l.Status != loop.Active {
		return event.Decision{}, err
	}
	// The checks and the judge get the budget less a reserve, so that the
	// iteration is still counted and saved when they run out of time.
	checkCtx := ctx
	if dl, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		checkCtx, cancel = context.WithDeadline(ctx, dl.Add(-loopSaveReserve))
		defer cancel()
	}
	missing := loop.RunChecks(checkCtx, c.Caller(), c.ProjectDir, l.Checks)
	if len(missing) == 0 && len(l.Criteria) > 0 {
		missing = loopCriteria(checkCtx, c, l)
	}
	// The checks took time: count on the loop as it is now, so a `warden
	// loop stop` or a new loop meanwhile is not overwritten and another
	// session's stop counted meanwhile is not lost.
	now, err := loop.Load(ctx, c.Store, c.ProjectDir)
	if err != nil || now == nil || now.Status != loop.Active || !now.Started.Equal(l.Started) {
		return event.Decision{}, err
	}
	l = now
	status := l.Count(c.Input.SessionID, missing, c.Now)
	if err := loop.Save(ctx, c.Store, l); err != nil {
		return event.Decision{}, err
	}
	switch status {
	case loop.Done:
		return event.Decision{Verdict: event.Audit, RuleID: "loop:done", Mode: "audit",
			Reason: l.Summary(), SystemMessage: l.Summary()}, nil
	case loop.MaxedOut:
		return event.Decision{Verdict: event.Audit, RuleID: "loop:max", Mode: "audit",
			Reason: l.Summary(), SystemMessage: l.Summary()}, nil
	}
	return event.Decision{Verdict: event.Deny, RuleID: "loop:criteria", Mode: "deny",
		Reason: l.BlockReason(missing)}, nil
}

// loopCriteria checks the criteria text: by the judge when one is usable
// (a judge that fails open counts as holding, as everywhere); without one,
// the check commands stand for them, and with no checks either Claude
// must declare them met in its final message.
func loopCriteria(ctx context.Context, c *pipeline.Call, l *loop.Loop) []string {
	if provider, ok, _ := judgesUsable(c); ok {
		t, _ := judge.ReadTranscript(c.Input.TranscriptPath)
		vars := judge.TempoVars(nil, c.Input.LastAssistantMessage, t)
		vars["task"] = l.Task
		vars["criteria"] = "- " + strings.Join(l.Criteria, "\n- ")
		req := judge.NewRequest(c.Config, provider, "loop", judge.KindTempo, c.Config.Tempo.Tier,
			judge.Render("loop", judge.KindTempo, vars))
		resp := askJudge(ctx, c, req)
		if resp.FailedOpen || resp.Verdict.Pass {
			return nil
		}
		return []string{"the judge: " + resp.Verdict.Reason}
	}
	if len(l.Checks) > 0 || loop.Declared(c.Input.LastAssistantMessage) {
		// Without a judge, the checks are what verifies the criteria.
		return nil
	}
	return loop.Undeclared(l.Criteria)
}
