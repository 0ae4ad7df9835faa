package hookio

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/warden-dev/warden/internal/event"
)

// Output is exactly what the hook process writes and how it exits. Either
// Exit is 0 and Stdout holds at most one JSON object, or Exit is 2 and the
// reason is on Stderr with nothing on Stdout — never JSON with another code
// (claude-code-hooks.md §3.1, pitfall 3).
type Output struct {
	Stdout []byte
	Stderr string
	Exit   int
}

// maxText keeps every string under Claude Code's 10,000-character cap, past
// which it swaps the text for a file preview.
const maxText = 9900

type permissionBehavior struct {
	Behavior string `json:"behavior"`
	Message  string `json:"message,omitempty"`
}

type specificOutput struct {
	HookEventName            event.Name          `json:"hookEventName"`
	PermissionDecision       string              `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string              `json:"permissionDecisionReason,omitempty"`
	Decision                 *permissionBehavior `json:"decision,omitempty"`
	AdditionalContext        string              `json:"additionalContext,omitempty"`
}

type jsonOutput struct {
	Decision           string          `json:"decision,omitempty"`
	Reason             string          `json:"reason,omitempty"`
	SystemMessage      string          `json:"systemMessage,omitempty"`
	HookSpecificOutput *specificOutput `json:"hookSpecificOutput,omitempty"`
}

// Render turns a combined decision into the output Claude Code expects for
// event ev. Allow with nothing to say is silence: no output at all.
func Render(ev event.Name, d event.Decision) Output {
	spec := SpecFor(ev)
	var out jsonOutput
	hso := specificOutput{HookEventName: ev}
	ctx, sys := d.Context, d.SystemMessage

	// A typed warden command is answered to the user and kept from the model.
	if d.UserReply != "" && (ev == event.UserPromptSubmit || ev == event.UserPromptExpansion) {
		return encode(jsonOutput{Decision: "block", Reason: clip(d.UserReply)})
	}

	verdict := d.Verdict
	if verdict == event.Ask && spec.Block != PermissionDecision {
		verdict = event.Warn // only PreToolUse and PreModelSwitch can ask
	}
	if verdict == event.Deny && spec.Block == NoBlock {
		verdict = event.Warn // the event cannot be blocked: say it instead
	}
	reason := label(d)

	switch verdict {
	case event.Deny:
		switch spec.Block {
		case PermissionDecision:
			hso.PermissionDecision, hso.PermissionDecisionReason = "deny", clip(reason)
		case PermissionBehavior:
			hso.Decision = &permissionBehavior{Behavior: "deny", Message: clip(reason)}
		case TopLevelDecision:
			out.Decision, out.Reason = "block", clip(reason)
		case ExitTwo:
			return Output{Stderr: clip(reason), Exit: 2}
		}
	case event.Ask:
		hso.PermissionDecision, hso.PermissionDecisionReason = "ask", clip(reason)
	case event.Warn:
		if d.Reason != "" {
			ctx = joinText(reason, ctx)
			sys = joinText(reason, sys)
		}
	}
	if d.Explicit && spec.Block == PermissionDecision && verdict != event.Deny && verdict != event.Ask {
		// A task agent's call the policy allows (or only warns or audits
		// about) is answered out loud, so Claude Code asks nobody.
		hso.PermissionDecision = "allow"
	}

	if ctx != "" && spec.Context {
		hso.AdditionalContext = clip(ctx)
	}
	if sys != "" && spec.SystemMessage {
		out.SystemMessage = clip(sys)
	}
	if hso.PermissionDecision != "" || hso.Decision != nil || hso.AdditionalContext != "" {
		out.HookSpecificOutput = &hso
	}
	return encode(out)
}

// label prefixes a reason with who decided, so Claude and the user can ask
// `warden explain` about it.
func label(d event.Decision) string {
	if d.Reason == "" {
		if d.RuleID != "" {
			return fmt.Sprintf("warden [%s]", d.RuleID)
		}
		return "warden"
	}
	if d.RuleID == "" {
		return "warden: " + d.Reason
	}
	return fmt.Sprintf("warden [%s]: %s", d.RuleID, d.Reason)
}

func encode(o jsonOutput) Output {
	if o == (jsonOutput{}) {
		return Output{}
	}
	b, err := json.Marshal(o)
	if err != nil { // cannot happen with these types; fail open
		return Output{}
	}
	return Output{Stdout: append(b, '\n')}
}

func joinText(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n\n" + b
}

// clip cuts s to maxText characters on a rune boundary.
func clip(s string) string {
	if len(s) <= maxText {
		return s
	}
	n := 0
	for i := range s {
		if n == maxText-1 {
			return s[:i] + "…"
		}
		n++
	}
	if !utf8.ValidString(s) {
		return s[:maxText]
	}
	return s
}

// Label is the reason as warden shows it: who decided, and why.
func Label(d event.Decision) string { return label(d) }

// Clip cuts a text to what every CLI shows whole.
func Clip(s string) string { return clip(s) }

// Encode writes one JSON answer (nil: silence) as a hook's output.
func Encode(v any) Output {
	if v == nil {
		return Output{}
	}
	b, err := json.Marshal(v)
	if err != nil { // cannot happen with the types used; fail open
		return Output{}
	}
	return Output{Stdout: append(b, '\n')}
}
