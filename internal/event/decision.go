package event

import (
	"strings"
	"time"
)

// Verdict is what a handler wants Claude Code to do, and the mode a policy
// rule is set to (policy.Mode is this type): one enum, one ranking. Closed
// set, persisted as text (never as an iota).
type Verdict string

const (
	// Off is a rule switched off (a mode, never a handler's answer); it
	// ranks with Allow.
	Off Verdict = "off"
	// Allow is silence: no output at all.
	Allow Verdict = "allow"
	// Audit allows and only records.
	Audit Verdict = "audit"
	// Warn allows and tells Claude (additionalContext) and the user
	// (systemMessage) why.
	Warn Verdict = "warn"
	// Ask asks the user (PreToolUse, PreModelSwitch); elsewhere it is a warn.
	Ask Verdict = "ask"
	// Deny blocks: a denied tool call, a blocked prompt, a Stop that must go on.
	Deny Verdict = "deny"
)

// Rank orders verdicts by precedence: deny > ask > warn > audit > allow
// (and off, which says nothing).
func (v Verdict) Rank() int {
	switch v {
	case Deny:
		return 4
	case Ask:
		return 3
	case Warn:
		return 2
	case Audit:
		return 1
	}
	return 0
}

// Decision is one handler's answer, or the combined answer of all of them.
type Decision struct {
	Verdict Verdict `json:"verdict"`
	// RuleID names the rule or handler that decided, e.g. "core.git:push-force"
	// or "usercmd:status".
	RuleID string `json:"rule,omitempty"`
	// Mode is the configured mode of that rule (deny, ask, warn, audit).
	Mode string `json:"mode,omitempty"`
	// Reason is shown to Claude for a deny, to the user for ask/warn.
	Reason string `json:"reason,omitempty"`
	// Context is extra text for Claude (additionalContext) on events that
	// accept it, whatever the verdict.
	Context string `json:"context,omitempty"`
	// SystemMessage is a notice for the user.
	SystemMessage string `json:"system_message,omitempty"`
	// UserReply, at UserPromptSubmit, answers a typed warden command: the
	// prompt is blocked from the model and the text is shown to the user.
	UserReply string `json:"user_reply,omitempty"`
	// Sleep asks the runtime to wait before exiting (pacing throttles a
	// session this way in PostToolUse). The runtime sleeps after the session
	// state is saved and its lock released, never past the event's budget,
	// and wakes early on SIGTERM.
	Sleep time.Duration `json:"sleep,omitempty"`
	// Explicit, at PreToolUse, says a call that is not denied or asked
	// about out loud: permissionDecision "allow". Claude Code then runs
	// it with no dialog and no check of its own (auto mode's check runs
	// on the model provider's server and stops at a dialog offline). Set
	// for warden's task agents only, whose permission system warden is;
	// a person's own session keeps Claude Code's permissions.
	Explicit bool `json:"explicit,omitempty"`
}

// IsZero reports whether the decision says nothing at all.
func (d Decision) IsZero() bool {
	return (d.Verdict == "" || d.Verdict == Allow) && d.Context == "" &&
		d.SystemMessage == "" && d.UserReply == "" && d.RuleID == "" && d.Sleep == 0 && !d.Explicit
}

// Resolve combines decisions with precedence deny > ask > warn > audit >
// allow. The winner's rule, mode and reason are kept; contexts, system
// messages and user replies of every decision are joined so no handler's
// message is lost.
func Resolve(ds []Decision) Decision {
	var out Decision
	out.Verdict = Allow
	var ctx, sys, reply []string
	for _, d := range ds {
		v := d.Verdict
		if v == "" {
			v = Allow
		}
		if v.Rank() > out.Verdict.Rank() || (out.RuleID == "" && d.RuleID != "" && v.Rank() == out.Verdict.Rank()) {
			out.Verdict, out.RuleID, out.Mode, out.Reason = v, d.RuleID, d.Mode, d.Reason
		}
		out.Sleep = max(out.Sleep, d.Sleep)
		out.Explicit = out.Explicit || d.Explicit
		ctx = appendNonEmpty(ctx, d.Context)
		sys = appendNonEmpty(sys, d.SystemMessage)
		reply = appendNonEmpty(reply, d.UserReply)
	}
	out.Context = strings.Join(ctx, "\n\n")
	out.SystemMessage = strings.Join(sys, "\n")
	out.UserReply = strings.Join(reply, "\n\n")
	return out
}

func appendNonEmpty(xs []string, s string) []string {
	if s = strings.TrimSpace(s); s != "" {
		return append(xs, s)
	}
	return xs
}
