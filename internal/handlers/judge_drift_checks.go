package handlers

import (
	"context"
	"fmt"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/pipeline"
)

// driftPrompts is how many of the user's prompts the drift judges read.
const driftPrompts = 10

// changeLimit bounds the change text in a drift judge's prompt.
const changeLimit = 24000

// claudeMDCheck: a CLAUDE.md edit must not weaken the user's rules.
func claudeMDCheck(ctx context.Context, c *pipeline.Call, js *judge.State, file string) event.Decision {
	return fileJudge(ctx, c, js, file, "claude-md",
		"warden CLAUDE.md check of %s: %s\nCLAUDE.md instructs every future session: change it only as the user asked (or ask the user first).")
}

// planDriftCheck: a plan must still serve what the user asked.
func planDriftCheck(ctx context.Context, c *pipeline.Call, js *judge.State, file string) event.Decision {
	return fileJudge(ctx, c, js, file, "plan-drift",
		"warden plan-drift check of %s: %s\nBring the plan back to what the user asked (or ask the user about the change), then write it again.")
}

// fileJudge asks a sonnet judge about a file change against the user's
// prompts; deny is the denial's format (file, reason).
func fileJudge(ctx context.Context, c *pipeline.Call, js *judge.State, file, name, deny string) event.Decision {
	in := c.Input
	t, _ := judge.ReadTranscript(in.TranscriptPath)
	cur, exists := readCurrent(file)
	shown := displayRel(file, c.ProjectDir)
	vars := map[string]string{
		"prompts": numberedPrompts(sessionPrompts(t, js, driftPrompts)),
		"file":    shown,
		"change":  judge.DriftChange(in.ToolName, in.ToolInput, cur, exists, changeLimit),
	}
	req := judge.NewRequest(c.Config, "", name, judge.KindCheck, "sonnet", judge.Render(name, judge.KindCheck, vars))
	out := runCheckJudge(ctx, c, req, driftStrict(c, js, file), shown)
	if out.Blocked {
		return event.Decision{Verdict: event.Deny, RuleID: "judge:" + name, Mode: "deny", Reason: fmt.Sprintf(deny, shown, out.Reason)}
	}
	return noticeOnly(out.Notice)
}

// styleDriftCheck: an edit that is mostly formatting nobody asked for.
// The analysis is deterministic (judge.StyleDiff); an edit that changes
// only formatting, on many lines, is denied without a model — there is
// nothing for a judge to weigh — and one that is mostly formatting goes to
// a haiku judge, which can see whether the re-formatting serves the change.
func styleDriftCheck(ctx context.Context, c *pipeline.Call, js *judge.State, file string) event.Decision {
	in := c.Input
	stats := judge.StyleDiff(judge.EditPairs(in.ToolName, in.ToolInput), judge.IndentSignificant(file))
	if !stats.Mostly() {
		return event.Decision{}
	}
	t, _ := judge.ReadTranscript(in.TranscriptPath)
	prompts := sessionPrompts(t, js, driftPrompts)
	// A formatting request, or a failure of a formatter or linter in this
	// turn, makes formatting part of the task.
	asked := prompts
	if js.LastErrorPrompt == js.Prompts {
		asked = append(asked, js.LastError)
	}
	if judge.FormattingAsked(asked...) {
		return event.Decision{}
	}
	shown := displayRel(file, c.ProjectDir)
	const advice = "Keep the file's existing style and change only what the task needs, then edit again."
	if stats.Overwhelming() {
		return event.Decision{Verdict: event.Deny, RuleID: "judge:style-drift", Mode: "deny",
			Reason: fmt.Sprintf("warden style-drift check: this edit of %s only re-formats code (%s) and the user did not ask for formatting.\n%s", shown, stats, advice)}
	}
	vars := map[string]string{
		"prompts":  numberedPrompts(prompts),
		"file":     shown,
		"change":   judge.ChangeText(in.ToolName, in.ToolInput, changeLimit),
		"analysis": "In this change " + stats.String() + ".",
	}
	req := judge.NewRequest(c.Config, "", "style-drift", judge.KindCheck, "haiku", judge.Render("style-drift", judge.KindCheck, vars))
	out := runCheckJudge(ctx, c, req, driftStrict(c, js, file), shown)
	if out.Blocked {
		return event.Decision{Verdict: event.Deny, RuleID: "judge:style-drift", Mode: "deny",
			Reason: fmt.Sprintf("warden style-drift check of %s: %s\n(%s.) %s", shown, out.Reason, stats, advice)}
	}
	return noticeOnly(out.Notice)
}
