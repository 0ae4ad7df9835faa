package harness

import (
	"encoding/json"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/hookio"
)

// Out is the answer to CLI h for its event native (warden's event ev):
// exactly the keys that CLI accepts there. Allow with nothing to say is
// silence, as for Claude Code.
func Out(h Name, native string, ev event.Name, d event.Decision) hookio.Output {
	switch h {
	case Codex:
		return codex(ev, forCodex(d))
	case Gemini:
		return gemini(native, ev, noAsk(h, d))
	case Copilot:
		if native != "" && native[0] >= 'A' && native[0] <= 'Z' {
			// PascalCase config: Copilot speaks Claude Code's protocol
			// (and asks, or denies where it cannot ask).
			return hookio.Render(ev, d)
		}
		return copilot(ev, d)
	}
	return hookio.Render(ev, d)
}

// Answered is the decision as CLI h carries it out, for the record: an
// ask where the CLI cannot ask is a deny (see noAsk).
func Answered(h Name, d event.Decision) event.Decision {
	switch h {
	case Codex, Gemini:
		return noAsk(h, d)
	}
	return d
}

// forCodex: Codex's PreToolUse cannot ask (an "ask" fails the hook and
// the tool runs) and rejects a bare "allow" the same way, so an ask is a
// deny that says a person must run or approve the call, and warden's
// explicit allow for its task agents is silence (Codex then applies its
// own approval policy).
func forCodex(d event.Decision) event.Decision {
	d = noAsk(Codex, d)
	d.Explicit = false
	return d
}

// codexSpecific are the events whose Codex answer has a
// hookSpecificOutput (its embedded output schemas); elsewhere that key
// makes Codex discard the whole answer.
var codexSpecific = map[event.Name]bool{
	event.PreToolUse: true, event.PostToolUse: true, event.UserPromptSubmit: true,
	event.SessionStart: true, event.SubagentStart: true, event.PermissionRequest: true,
}

// codex is Claude Code's answer (Codex reads the same keys) without what
// Codex's schema for the event lacks.
func codex(ev event.Name, d event.Decision) hookio.Output {
	out := hookio.Render(ev, d)
	if codexSpecific[ev] || len(out.Stdout) == 0 {
		return out
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(out.Stdout, &m) != nil {
		return out
	}
	if _, ok := m["hookSpecificOutput"]; !ok {
		return out
	}
	delete(m, "hookSpecificOutput")
	if len(m) == 0 {
		return hookio.Output{}
	}
	return hookio.Encode(m)
}

// noAsk turns an ask into a deny whose reason says why: the CLI cannot
// ask the user from a hook (Codex) or hangs for ever when it does in a
// headless run (Gemini), and running the call unasked is what the rule
// is there to prevent.
func noAsk(h Name, d event.Decision) event.Decision {
	if d.Verdict != event.Ask {
		return d // a deny made from an ask is not made twice
	}
	d.Verdict = event.Deny
	why := d.Reason
	if why != "" {
		why += ". "
	}
	d.Reason = why + "This call needs a person's approval, and " + h.Title() +
		" cannot ask from a hook, so warden denied it: a person must run it themselves, or allow it in warden's policy"
	return d
}

// geminiOut is Gemini CLI's hook answer (docs/hooks/reference.md in the
// CLI's package): decision deny blocks a tool, a prompt, or an agent's end
// (its reason then becomes the next prompt).
type geminiOut struct {
	Decision      string         `json:"decision,omitempty"`
	Reason        string         `json:"reason,omitempty"`
	SystemMessage string         `json:"systemMessage,omitempty"`
	Specific      *geminiContext `json:"hookSpecificOutput,omitempty"`
}

type geminiContext struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext"`
}

func gemini(native string, ev event.Name, d event.Decision) hookio.Output {
	var o geminiOut
	blocks := ev == event.PreToolUse || ev == event.UserPromptSubmit || ev == event.Stop
	takesContext := ev == event.PostToolUse || ev == event.UserPromptSubmit || ev == event.SessionStart
	ctx, sys := d.Context, d.SystemMessage
	if d.UserReply != "" && ev == event.UserPromptSubmit {
		return hookio.Encode(geminiOut{Decision: "deny", Reason: hookio.Clip(d.UserReply)})
	}
	switch {
	case d.Verdict == event.Deny && blocks:
		o.Decision, o.Reason = "deny", hookio.Clip(hookio.Label(d))
	case d.Verdict == event.Deny || d.Verdict == event.Warn:
		if d.Reason != "" {
			ctx = join(hookio.Label(d), ctx)
			sys = join(hookio.Label(d), sys)
		}
	}
	if sys != "" {
		o.SystemMessage = hookio.Clip(sys)
	}
	if ctx != "" && takesContext {
		o.Specific = &geminiContext{HookEventName: native, AdditionalContext: hookio.Clip(ctx)}
	}
	if o == (geminiOut{}) {
		return hookio.Output{}
	}
	return hookio.Encode(o)
}

// copilotOut is Copilot CLI's camelCase answer: preToolUse takes
// permissionDecision (allow, deny, ask: ask prompts in a session and
// denies in a headless -p run), pre- and postToolUse additionalContext,
// agentStop and subagentStop decision block. Copilot drops a command
// hook's answer to userPromptSubmitted.
type copilotOut struct {
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	Decision                 string `json:"decision,omitempty"`
	Reason                   string `json:"reason,omitempty"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
}

func copilot(ev event.Name, d event.Decision) hookio.Output {
	var o copilotOut
	ctx := d.Context
	switch ev {
	case event.PreToolUse:
		switch d.Verdict {
		case event.Deny, event.Ask:
			o.PermissionDecision, o.PermissionDecisionReason = string(d.Verdict), hookio.Clip(hookio.Label(d))
		case event.Warn:
			if d.Reason != "" {
				ctx = join(hookio.Label(d), ctx)
			}
			if d.Explicit {
				o.PermissionDecision = "allow"
			}
		default:
			if d.Explicit {
				o.PermissionDecision = "allow"
			}
		}
	case event.PostToolUse, event.PostToolUseFailure:
		if (d.Verdict == event.Deny || d.Verdict == event.Warn) && d.Reason != "" {
			ctx = join(hookio.Label(d), ctx)
		}
	case event.Stop, event.SubagentStop:
		if d.Verdict == event.Deny {
			o.Decision, o.Reason = "block", hookio.Clip(hookio.Label(d))
		}
		ctx = ""
	default:
		return hookio.Output{}
	}
	if ctx != "" {
		o.AdditionalContext = hookio.Clip(ctx)
	}
	if o == (copilotOut{}) {
		return hookio.Output{}
	}
	return hookio.Encode(o)
}

func join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n\n" + b
}
