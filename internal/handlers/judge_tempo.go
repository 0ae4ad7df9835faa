package handlers

import (
	"context"
	"fmt"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/pipeline"
)

// Tempo, the completion judge (SPEC §5): at Stop a judge acting as the
// user's proxy reads the user's prompts of the session and Claude's final
// message (last_assistant_message from the input: the transcript may lag
// the live turn) plus the last tool results, and answers APPROVED or
// BLOCKED: <what is missing>. A block makes Claude continue with that
// feedback. At most tempo.max_blocks consecutive blocks per turn; at the
// cap the stop is allowed with a notice, whether stop_hook_active or not.
// SubagentStop is judged only with tempo.subagent. SessionStart tells
// Claude the protocol when tempo is on. Inside a judge's own nested claude
// (WARDEN_JUDGE_NESTED) nothing runs.
func judgeTempoHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "tempo",
		Events: []event.Name{event.SessionStart, event.UserPromptSubmit, event.Stop, event.SubagentStop},
		Run:    runTempo,
	}
}

func runTempo(ctx context.Context, c *pipeline.Call) (event.Decision, error) {
	if judge.Nested(c.Getenv) {
		return event.Decision{}, nil
	}
	if c.Event == event.UserPromptSubmit {
		js := judge.LoadState(c.State)
		js.TempoBlocks, js.Prompts, js.AfterTrouble = 0, js.Prompts+1, false
		js.LastPrompt = clipText(c.Input.Prompt, 4000)
		js.Save(c.State)
		return event.Decision{}, nil
	}
	if c.Event == event.SubagentStop && !c.Config.Tempo.Subagent {
		return event.Decision{}, nil
	}
	on, _ := tempoOn(ctx, c)
	if !on {
		return event.Decision{}, nil
	}
	provider, usable, notice := judgesUsable(c)
	if !usable {
		return noticeOnly(notice), nil
	}
	if c.Event == event.SessionStart {
		return event.Decision{Context: judge.TempoProtocol(c.Config.Tempo.MaxBlocks)}, nil
	}

	js := judge.LoadState(c.State)
	if judge.TempoNext(js.TempoBlocks, c.Config.Tempo.MaxBlocks) == judge.TempoGiveUp {
		n := js.TempoBlocks
		js.TempoBlocks = 0
		js.Save(c.State)
		return event.Decision{Verdict: event.Audit, RuleID: "judge:tempo-gave-up", Mode: "audit",
			Reason:        fmt.Sprintf("tempo blocked %d consecutive stops in this turn and gave up", n),
			SystemMessage: fmt.Sprintf("warden tempo gave up after %d consecutive blocks in this turn: the stop is allowed, but the judge still thought the work was unfinished. Check it yourself.", n)}, nil
	}

	path := c.Input.TranscriptPath
	if c.Event == event.SubagentStop {
		if p := rawString(c.Input, "agent_transcript_path"); p != "" {
			path = p
		}
	}
	t, _ := judge.ReadTranscript(path)
	prompts := t.LastPrompts(10)
	if c.Event == event.Stop {
		prompts = sessionPrompts(t, js, 10)
		// A warden agent's task may say in words when it is done.
		if _, at := findAgentTask(c); at != nil {
			if line := at.judgeCriteria(); line != "" {
				prompts = append(prompts, line)
			}
		}
	}
	vars := judge.TempoVars(prompts, c.Input.LastAssistantMessage, t)
	req := judge.NewRequest(c.Config, provider, "tempo", judge.KindTempo, c.Config.Tempo.Tier,
		judge.Render("tempo", judge.KindTempo, vars))
	resp := askJudge(ctx, c, req)
	if resp.FailedOpen || resp.Verdict.Pass {
		js.TempoBlocks = 0
		js.Save(c.State)
		return event.Decision{}, nil
	}
	js.TempoBlocks++
	js.Save(c.State)
	return event.Decision{Verdict: event.Deny, RuleID: "judge:tempo", Mode: "deny",
		Reason: fmt.Sprintf("warden tempo (the judge acting for the user) says the work is not finished: %s\n"+
			"Do what is missing, then stop again. (block %d of at most %d in this turn)",
			resp.Verdict.Reason, js.TempoBlocks, c.Config.Tempo.MaxBlocks)}, nil
}

// tempoOn applies the precedence: session override > `warden tempo on|off`
// > tempo.enabled.
func tempoOn(ctx context.Context, c *pipeline.Call) (bool, string) {
	session := ""
	if c.Input.SessionID != "" {
		session = setting(ctx, c, judge.SessionSetting(c.Input.SessionID))
	}
	on, why := judge.TempoActive(c.Config.Tempo.Enabled, setting(ctx, c, judge.SettingTempo), session, "")
	return on, why
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
