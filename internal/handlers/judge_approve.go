package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/pipeline"
)

// Tool approval and workaround detection (validation.tool_approve), run by
// the judge-pretool handler. That handler runs after every deterministic
// handler (pipeline.OrderJudge), so it sees their decision for the call:
// a call a rule or gate denied or sent to the user is not judged again,
// but its denial is counted. judge.ApproveState holds the counts.

// approval is tool approval's view of one PreToolUse call; nil when tool
// approval is off.
type approval struct {
	st  *judge.ApproveState
	key string
}

func newApproval(c *pipeline.Call) *approval {
	if !c.Config.Validation.ToolApprove || c.Event != event.PreToolUse || c.Input.ToolName == "" {
		return nil
	}
	home := c.Paths().UserHome()
	return &approval{st: judge.LoadApproveState(c.State),
		key: judge.SimilarKey(c.Input.ToolName, c.Input.ToolInput, c.ProjectDir, home)}
}

// workaround denies, without a model, a call similar to WorkaroundAfter
// calls already denied in this session. The reason tells Claude to stop and
// ask; the notice tells the user. When an earlier handler denies the call
// too, its reason wins the combination, so the message also goes to Claude
// as context.
func (a *approval) workaround(js *judge.State, prior event.Decision) (event.Decision, bool) {
	if a == nil {
		return event.Decision{}, false
	}
	n := a.st.Denials[a.key]
	if !a.st.Workaround(a.key, js.Prompts) {
		return event.Decision{}, false
	}
	forClaude, forUser := judge.WorkaroundMessages(a.key, n)
	d := event.Decision{Verdict: event.Deny, RuleID: "judge:workaround", Mode: "deny", Reason: forClaude, SystemMessage: forUser}
	if prior.Verdict == event.Deny {
		d.Context = forClaude
	}
	return d, true
}

// denied counts a denial of this call, whoever denied it.
func (a *approval) denied() {
	if a != nil {
		a.st.NoteDenial(a.key)
	}
}

func (a *approval) save(c *pipeline.Call) {
	if a != nil {
		a.st.Save(c.State)
	}
}

// toolApprove asks the haiku judge about a call no handler decided, with
// one appeal (sonnet: it weighs the whole recent conversation) run by
// warden-helper judge right after a DENY. judged is false when the call was left
// alone (low risk, decided elsewhere, judges unusable).
func toolApprove(ctx context.Context, c *pipeline.Call, js *judge.State, a *approval, prior event.Decision) (d event.Decision, judged bool) {
	in := c.Input
	if a == nil || judge.LowRisk(in.ToolName, c.Config.Validation.LowRiskTools) {
		return event.Decision{}, false
	}
	if prior.Verdict == event.Ask || prior.Verdict == event.Deny {
		return event.Decision{}, false // a rule decided; the user answers an ask
	}
	provider, usable, notice := judgesUsable(c)
	if !usable {
		return noticeOnly(notice), false
	}
	t, _ := judge.ReadTranscript(in.TranscriptPath)
	input := approveInputText(in.ToolInput, 6000)
	req := judge.NewRequest(c.Config, provider, "tool-approve", judge.KindApprove, "haiku",
		judge.Render("tool-approve", judge.KindApprove, map[string]string{
			"prompts":   numberedPrompts(sessionPrompts(t, js, 5)),
			"assistant": strings.Join(t.AssistantTexts(2), "\n\n"),
			"tool":      in.ToolName, "input": input,
		}))
	req.OnFail = judge.NewRequest(c.Config, provider, "appeal", judge.KindAppeal, "sonnet",
		judge.Render("appeal", judge.KindAppeal, map[string]string{
			"denial": judge.DenialSlot, "tool": in.ToolName, "input": input,
			"transcript": recentConversation(t, js, 30),
		}))

	file := firstNonEmptyStr(in.ToolString("file_path"), in.ToolString("notebook_path"))
	firstAfterPrompt := a.st.JudgedPrompt != js.Prompts
	a.st.JudgedPrompt = js.Prompts
	strict := judge.StrictReason(judge.StrictInput{ToolCount: c.State.ToolCount, FirstAfterPrompt: firstAfterPrompt,
		AfterTrouble: js.AfterTrouble, ChangedLines: judge.ChangedLines(in.ToolName, in.ToolInput),
		PermissionMode: in.PermissionMode, FilePath: file, ProjectDir: c.ProjectDir, ClaudeDir: c.Paths().ClaudeDir()})
	if strict == "" && c.Config.Validation.Lazy && startLazy(ctx, c, req, in.ToolName, approveTarget(c)) {
		return event.Decision{}, true
	}
	resp := askJudge(ctx, c, req)
	// A first verdict that could not be had fails open. An appeal that
	// could not be heard leaves the denial standing (warden-helper judge copies
	// the first verdict into it).
	if resp.FailedOpen || resp.Verdict.Pass {
		return event.Decision{}, true
	}
	final := resp.Final()
	if final.Verdict.Pass {
		return event.Decision{}, true // overturned on appeal
	}
	reason := "warden tool approval denied this call: " + final.Verdict.Reason
	if resp.Appeal != nil && !resp.Appeal.FailedOpen {
		reason += "\n(The denial was upheld on appeal, with the recent conversation in view.)"
	}
	reason += "\nDo not retry it in another form. If it is really needed, tell the user why and let them run it or approve it."
	return event.Decision{Verdict: event.Deny, RuleID: "judge:tool-approve", Mode: "deny", Reason: reason}, true
}

// approveInputText renders tool_input for a prompt: indented JSON, clipped.
func approveInputText(raw json.RawMessage, limit int) string {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return clipText(string(raw), limit)
	}
	return clipText(b.String(), limit)
}

// approveTarget names a call in a delivered lazy verdict ("your earlier Bash
// of <target>").
func approveTarget(c *pipeline.Call) string {
	in := c.Input
	if cmd := in.ToolString("command"); cmd != "" {
		return "`" + clipText(strings.Join(strings.Fields(cmd), " "), 120) + "`"
	}
	if f := firstNonEmptyStr(in.ToolString("file_path"), in.ToolString("notebook_path")); f != "" {
		return displayRel(f, c.ProjectDir)
	}
	return clipText(string(in.ToolInput), 120)
}

// recentConversation is the transcript's tail for an appeal. At the first
// calls of a turn the transcript can lag the user's prompt (Claude Code
// writes it late), so the last prompt warden saw is added when missing.
func recentConversation(t *judge.Transcript, js *judge.State, n int) string {
	lines := t.Recent
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	lp := strings.TrimSpace(js.LastPrompt)
	if lp == "" {
		return strings.Join(lines, "\n")
	}
	last := ""
	for _, l := range t.Recent {
		if u, ok := strings.CutPrefix(l, "User: "); ok {
			last = u
		}
	}
	clipped, isClipped := strings.CutSuffix(last, "…")
	if last != lp && !(isClipped && strings.HasPrefix(lp, clipped)) {
		lines = append(lines, "User: "+clipText(lp, 600))
	}
	return strings.Join(lines, "\n")
}
