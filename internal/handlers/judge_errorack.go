package handlers

import (
	"context"
	"fmt"
	"time"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/gates"
	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/pipeline"
)

// Error acknowledgement (validation.error_ack, off by default). A failed
// tool call — PostToolUseFailure, or a PostToolUse whose result says it
// failed, decided as the circuit breaker decides (gates.FailureOf) — is
// remembered; the next mutating call (file tools, and Bash the gates
// classify as mutating) is checked for an acknowledgement in what Claude
// wrote since the failure: the word pattern of judge.CheckAck first, a
// haiku judge only when the pattern is unclear. No acknowledgement denies
// the call once, saying to acknowledge the failure first; once checked the
// failure is cleared, so the next attempt passes.
//
// A grep that found nothing (exit code 1, no output) is an answer, not a
// failure. A failure is forgotten without a check when the user prompts
// again (they have seen it and spoken) or when the same call later
// succeeds (it went away). Not checked, the failure staying pending: a
// call in the same message as the failed one (parallel tool calls; Claude
// has not seen the failure yet), and a call an earlier handler already
// denied (it will not run). The check always follows a failure, so
// StrictReason always makes it strict: the hook waits for the judge. It
// runs with the judges (pipeline.OrderJudge), before judge-pretool, which
// counts its denial as trouble.
func judgeErrorackHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "judge-errorack",
		Events: []event.Name{event.PreToolUse, event.PostToolUse, event.PostToolUseFailure},
		Order:  pipeline.OrderJudge,
		Run:    runJudgeErrorAck,
	}
}

func runJudgeErrorAck(ctx context.Context, c *pipeline.Call) (event.Decision, error) {
	if !c.Config.Validation.ErrorAck || judge.Nested(c.Getenv) {
		return event.Decision{}, nil
	}
	if c.Event != event.PreToolUse {
		trackFailure(c)
		return event.Decision{}, nil
	}
	js := judge.LoadState(c.State)
	if js.ErrorTool == "" {
		return event.Decision{}, nil
	}
	if js.ErrorPrompt != js.Prompts {
		clearFailure(js)
		js.Save(c.State)
		return event.Decision{}, nil
	}
	if mut, _ := callMutation(c); !mut || c.PriorDecision().Verdict == event.Deny {
		return event.Decision{}, nil
	}
	d, checked := ackCheck(ctx, c, js)
	if !checked {
		return d, nil
	}
	clearFailure(js)
	js.Save(c.State)
	return d, nil
}

// trackFailure remembers a failed call, or forgets the pending failure
// when the same call now succeeded.
func trackFailure(c *pipeline.Call) {
	in := c.Input
	failed, msg := gates.FailureOf(in)
	target := callTarget(in)
	if failed && judge.AnswerNotFailure(in.ToolName, target, msg) {
		failed = false
	}
	js := judge.LoadState(c.State)
	if !failed {
		if js.ErrorTool != "" && js.ErrorTool == in.ToolName && js.ErrorTarget == target {
			clearFailure(js)
			js.Save(c.State)
		}
		return
	}
	js.ErrorTool, js.ErrorTarget, js.ErrorToolUseID = in.ToolName, target, in.ToolUseID
	js.ErrorPrompt, js.ErrorMessage, js.AfterTrouble = js.Prompts, clipText(msg, 2000), true
	js.Save(c.State)
}

func clearFailure(js *judge.State) {
	js.ErrorTool, js.ErrorTarget, js.ErrorToolUseID, js.ErrorMessage = "", "", "", ""
}

// callTarget is what a call acts on: its command, file, URL or pattern.
func callTarget(in *event.Input) string {
	for _, k := range []string{"command", "file_path", "notebook_path", "url", "path", "pattern"} {
		if s := in.ToolString(k); s != "" {
			return clipText(s, 500)
		}
	}
	return ""
}

// ackCheck decides; checked is false when the call cannot be checked yet
// (same message as the failure, or the transcript has not caught up with
// the call and shows no acknowledgement): the failure then stays pending.
func ackCheck(ctx context.Context, c *pipeline.Call, js *judge.State) (d event.Decision, checked bool) {
	in := c.Input
	t := currentTranscript(ctx, in.TranscriptPath, in.ToolUseID)
	w := judge.AckWindowOf(t, js.ErrorToolUseID, in.ToolUseID)
	if w.SameMessage {
		return event.Decision{}, false
	}
	ack := judge.AckInput{Error: js.ErrorMessage, Tool: js.ErrorTool, Target: js.ErrorTarget, Texts: w.Texts}
	res, _ := judge.CheckAck(ack)
	switch {
	case res == judge.AckFound:
		return event.Decision{}, true
	case !w.Current:
		return event.Decision{}, false // fail open: what Claude just wrote is not readable yet
	case res == judge.AckMissing:
		return event.Decision{Verdict: event.Deny, RuleID: "judge:error-ack", Mode: "deny",
			Reason: "warden error acknowledgement: your last tool call failed and nothing you wrote since acknowledges it.\n" +
				failureLines(js) + "\nAcknowledge the failure first: say what failed and why, and how it changes your plan; then make this call again."}, true
	}
	vars := map[string]string{
		"error":     failureLines(js),
		"assistant": joinTexts(w.Texts),
		"tool":      in.ToolName,
		"input":     clipText(string(in.ToolInput), 4000),
	}
	req := judge.NewRequest(c.Config, "", "error-ack", judge.KindCheck, "haiku", judge.Render("error-ack", judge.KindCheck, vars))
	strict := driftStrict(c, js, in.ToolString("file_path"))
	strict.AfterTrouble = true // by construction: the call follows a failure
	out := runCheckJudge(ctx, c, req, strict, clipText(callTarget(in), 200))
	if out.Blocked {
		return event.Decision{Verdict: event.Deny, RuleID: "judge:error-ack", Mode: "deny",
			Reason: "warden error acknowledgement: " + out.Reason + "\n" + failureLines(js) +
				"\nAcknowledge the failure first, then make this call again."}, true
	}
	return noticeOnly(out.Notice), true
}

func failureLines(js *judge.State) string {
	s := "  Failed: " + js.ErrorTool
	if js.ErrorTarget != "" {
		s += " " + fmt.Sprintf("%q", clipText(js.ErrorTarget, 200))
	}
	if js.ErrorMessage != "" {
		s += "\n  Error: " + clipText(js.ErrorMessage, 600)
	}
	return s
}

func joinTexts(ts []string) string {
	out := ""
	for _, t := range ts {
		if out != "" {
			out += "\n---\n"
		}
		out += clipText(t, 3000)
	}
	return out
}

// transcriptWait bounds how long the check waits for the transcript
// (written asynchronously) to show the current call.
const (
	transcriptWait = 500 * time.Millisecond
	transcriptPoll = 100 * time.Millisecond
)

// currentTranscript reads the transcript, re-reading for a moment while it
// does not yet hold the current call.
func currentTranscript(ctx context.Context, path, currentID string) *judge.Transcript {
	deadline := time.Now().Add(transcriptWait)
	for {
		t, err := judge.ReadTranscript(path)
		if err != nil || currentID == "" || t.HasToolCall(currentID) || time.Now().After(deadline) {
			return t
		}
		select {
		case <-ctx.Done():
			return t
		case <-time.After(transcriptPoll):
		}
	}
}
