package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/lazyre"
)

// Mode is what a rule does when it fires. It is the hook verdict itself
// (event.Verdict): one enum and one ranking, deny > ask > warn > audit >
// off/allow, so a hit's mode is the decision without a translation.
type Mode = event.Verdict

const (
	Off   = event.Off
	Audit = event.Audit
	Warn  = event.Warn
	Ask   = event.Ask
	Deny  = event.Deny
)

// ParseMode accepts the mode names of config files.
func ParseMode(s string) (Mode, bool) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case Off, Audit, Warn, Ask, Deny:
		return m, true
	}
	return "", false
}

// Rule is one guard. Built-in rules match with a Go function over the
// facts; user rules with a declarative Matcher and/or an expression.
type Rule struct {
	// ID is "<category>.<pack>:<rule>", kebab-case: core.git:push-force.
	ID   string
	Desc string
	// Mode is the default mode; config may change it per rule or pack.
	Mode Mode
	// FailClosed makes an error while evaluating the rule a deny.
	FailClosed bool
	// Events the rule runs on; empty means PreToolUse and PermissionRequest.
	Events []string
	// Tools the rule looks at; empty means any tool.
	Tools []string
	// Cmds, when set, is the prefilter for shell tools: the rule is only
	// evaluated when one of these commands is in the call.
	Cmds []string
	// On is the trigger of a rule without Cmds (trigger.go): the facts a
	// call must have for the rule to fire at all. Every built-in rule
	// declares Cmds, or On (or an entry in builtinTriggers), or only
	// non-shell Tools; a user rule without one runs on every call.
	On Trigger
	// Reads marks a built-in rule whose finding is a read, not a change:
	// a secret printed or looked for, a token sent along with a request,
	// warden's own files read. The gates that stop changes (safemode, the
	// breaker, the research and start-up gates) leave its verdict as it
	// is; every other asking or denying rule counts as a change, so a
	// new rule is a change until it says it only reads.
	Reads bool
	// Once asks only once per session for each key the rule reports
	// (sensitive project files).
	Once bool
	// Match returns why the rule fires ("" when it does not). It may set
	// e.OnceKey.
	Match func(e *Env) string

	// Catch and Allow are the rule's own tests (shipped in the binary, run
	// by `warden policy test`): inputs it must fire on and near-misses it
	// must leave alone. An input is a Bash command, or a JSON payload
	// {"tool_name":…,"tool_input":…} for other tools.
	Catch, Allow []string

	// User rules.
	Source string // file:line
	decl   *declRule
	expr   *exprRule
}

// Pack returns the pack of a rule id: "core.git" for "core.git:push-force".
func (r *Rule) Pack() string { return packOf(r.ID) }

func packOf(id string) string {
	if i := strings.IndexByte(id, ':'); i > 0 {
		return id[:i]
	}
	return id
}

func categoryOf(id string) string {
	if i := strings.IndexByte(id, '.'); i > 0 {
		return id[:i]
	}
	return packOf(id)
}

// Pack is a named set of rules that is switched on and off together.
type Pack struct {
	Name  string // "core.git"
	Desc  string
	Rules []Rule
	// Remote marks a pack whose rules are about changes that leave this
	// machine (clouds, clusters, registries, shared services): a command
	// of theirs aimed at this machine or a lab host is left alone
	// (Env.externalSkip), and a change one of them asks about is denied
	// when it rewrites, destroys or disrupts a place the line names as
	// production (prod_rewrite.go).
	Remote bool
}

func (r *Rule) runsOn(event string) bool {
	if len(r.Events) == 0 {
		return event == "PreToolUse" || event == "PermissionRequest" || event == ""
	}
	for _, e := range r.Events {
		if e == event {
			return true
		}
	}
	return false
}

func (r *Rule) forTool(tool string) bool {
	if len(r.Tools) == 0 {
		return true
	}
	for _, t := range r.Tools {
		if t == tool {
			return true
		}
	}
	return false
}

// lazyRE compiles its pattern on first use, so no hook pays for regexps of
// rules that never run.
type lazyRE = lazyre.Regexp

func re(p string) *lazyRE { return lazyre.New(p) }
