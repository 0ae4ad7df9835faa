package policy

import (
	"errors"
	"fmt"
	"strings"

	"github.com/expr-lang/expr/file"
)

var knownTools = []string{"Bash", "PowerShell", "Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "Grep", "Glob", "LS",
	"WebFetch", "WebSearch", "Agent", "Task", "TodoWrite", "ExitPlanMode", "Skill", "SlashCommand", "BashOutput", "KillShell"}

var knownEvents = []string{"PreToolUse", "PermissionRequest", "UserPromptSubmit"}

// Lint checks user rules: expressions and regexps compile, tools and events
// exist, and the rule can fire at all. Problems carry file:line.
func Lint(rules []Rule, opts Options) []Problem {
	var out []Problem
	for i := range rules {
		r := &rules[i]
		fname, line := splitSource(r.Source)
		bad := func(l int, format string, a ...any) {
			out = append(out, Problem{File: fname, Line: l, Msg: r.ID + ": " + fmt.Sprintf(format, a...)})
		}
		for _, t := range r.Tools {
			if !contains(knownTools, t) && !strings.HasPrefix(t, "mcp__") {
				bad(line, "unknown tool %q (known: %s, or mcp__server__tool)", t, strings.Join(knownTools, ", "))
			}
		}
		for _, ev := range r.Events {
			if !contains(knownEvents, ev) {
				bad(line, "rules do not run on event %q; it can never fire (events: %s)", ev, strings.Join(knownEvents, ", "))
			}
		}
		if len(r.Cmds) > 0 && len(r.Tools) > 0 && !isShellOnly(&Rule{Tools: r.Tools}) {
			bad(line, "commands only match Bash/PowerShell calls, but tools lists %s", strings.Join(r.Tools, ", "))
		}
		if len(r.Events) == 1 && r.Events[0] == "UserPromptSubmit" && (len(r.Tools) > 0 || len(r.Cmds) > 0) {
			bad(line, "a UserPromptSubmit rule has no tool or commands; it can never fire")
		}
		if r.decl != nil {
			if err := r.decl.compile(); err != nil {
				bad(line, "%v", err)
			}
			for _, op := range r.decl.PathOps {
				if !contains([]string{OpRead, OpWrite, OpDelete, OpArg}, op) {
					bad(line, "unknown path op %q (read, write, delete, arg)", op)
				}
			}
		}
		if r.expr != nil {
			prog, err := compileExpr(r.expr.src)
			var fe *file.Error
			switch {
			case errors.As(err, &fe):
				bad(max(r.expr.line, line)+exprLineOffset(fe.Line), "expr: %s", strings.TrimSpace(fe.Message))
			case err != nil:
				bad(line, "expr: %v", err)
			case neverTrue(prog):
				bad(line, "expr is always false; the rule can never fire")
			}
		}
		if ResolveMode(r, &opts) == Off {
			bad(line, "switched off by policy.disabled or policy.modes; it never fires")
		}
	}
	return out
}

// LintOptions reports policy.modes/raise/disabled entries that name no
// rule, and policy.zones/zones_raise entries that name no cell.
func LintOptions(rules []Rule, packs []Pack, opts Options) []string {
	ids := map[string]bool{}
	addID := func(id string) { ids[id], ids[packOf(id)], ids[categoryOf(id)] = true, true, true }
	for _, p := range packs {
		for _, r := range p.Rules {
			addID(r.ID)
		}
	}
	for _, r := range rules {
		addID(r.ID)
	}
	var out []string
	check := func(key string, entries []string, withMode bool) {
		for _, e := range entries {
			id := e
			if withMode {
				k, v, ok := strings.Cut(e, "=")
				if _, good := ParseMode(v); !ok || !good {
					out = append(out, fmt.Sprintf("%s: %q must be \"id=mode\" with mode deny, ask, warn, audit or off", key, e))
					continue
				}
				id = strings.TrimSpace(k)
			}
			if !ids[id] {
				out = append(out, fmt.Sprintf("%s: %q names no rule, pack or category", key, id))
			}
		}
	}
	check("policy.disabled", opts.Disabled, false)
	check("policy.modes", opts.Modes, true)
	check("policy.raise", opts.Raise, true)
	out = append(out, lintZoneEntries("policy.zones", opts.Zones)...)
	return append(out, lintZoneEntries("policy.zones_raise", opts.ZonesRaise)...)
}

// exprLineOffset: the expression usually starts on the line after [[rule]]
// plus a few keys; errors are reported at the rule's line plus the
// expression's own line - 1.
func exprLineOffset(l int) int {
	if l > 1 {
		return l - 1
	}
	return 0
}

func splitSource(s string) (string, int) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0
	}
	n := 0
	fmt.Sscanf(s[i+1:], "%d", &n)
	return s[:i], n
}
