package policy

import (
	"path"
	"strings"
)

// A path the line does not spell but reads out of the agent's own
// settings (HOOK=$(jq -r '.hooks…command' ~/.claude/settings.json);
// chmod -x "$HOOK", jq … | while read h; do : > "$h"; done, jq … |
// xargs rm) is a program the agent runs as a hook or status line: the
// value carries the class of the file it was read from. Written,
// emptied, chmod -x'ed, moved or deleted, the guard is switched off by
// the model, as core.self:hook-scripts says for a path the line names.
// Reading the settings alone (jq .hooks ~/.claude/settings.json | less)
// changes nothing and stays allowed.

// agentSettingsFile: Claude Code's settings (user or project), where
// hooks and the status line name the programs the agent runs.
func agentSettingsFile(p string) bool {
	b := path.Base(p)
	return strings.HasSuffix(path.Dir(p), "/.claude") && strings.HasPrefix(b, "settings") && strings.HasSuffix(b, ".json")
}

// unspelled: a target whose name the line builds at run time (a
// substitution, a variable, xargs' input).
func unspelled(p string) bool { return strings.Contains(p, "$") }

// settingsReaders are the commands that read the agent's settings and
// hand their output on: captured by a substitution or piped on.
func settingsReaders(e *Env) (captured bool, piped map[string]bool) {
	for _, p := range e.F.Paths {
		if p.Op != OpRead || !agentSettingsFile(p.Path) {
			continue
		}
		for i := range e.F.Commands {
			c := &e.F.Commands[i]
			if c.Name != p.Via {
				continue
			}
			if piped == nil {
				piped = map[string]bool{}
			}
			piped[c.Name] = true
		}
	}
	// $(jq … settings.json | awk …): the pipe's last stage is the one
	// the substitution takes
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c.Captured && (piped[c.Name] || derivedFrom(c, "$", false, piped)) {
			captured = true
		}
	}
	return captured, piped
}

// unspelledTargets are the arguments a command changes when the line
// cannot resolve them (no Targets then): every operand of a mover or
// deleter, the last one of a copier.
func unspelledTargets(c *Cmd) []string {
	if len(c.Targets) > 0 || len(c.Pos) == 0 {
		return c.Targets
	}
	switch c.Name {
	case "mv", "rm", "unlink", "shred", "truncate", "tee", "sed", "perl":
		if c.Name == "sed" || c.Name == "perl" {
			if !c.Has("-i", "--in-place") {
				return nil
			}
		}
		return c.Pos
	case "cp", "install", "ln", "rsync":
		return c.Pos[len(c.Pos)-1:]
	}
	return nil
}

// derivedFrom: c's unspelled target takes its value from the settings'
// reader, by a substitution on the line or by the pipe c stands in.
func derivedFrom(c *Cmd, target string, captured bool, piped map[string]bool) bool {
	if !unspelled(target) {
		return false
	}
	if captured && strings.Contains(target, "$(…)") {
		return true // the substitution's value (H=$(jq …); chmod -x "$H" reads $(…)); a variable the line never sets is not it
	}
	for _, u := range c.Upstream {
		if piped[u] {
			return true
		}
	}
	return false
}

func hookDerivedRule() Rule {
	return Rule{
		ID: "core.self:hook-derived", Mode: Deny, Tools: shellTools, On: On(0).OrText("settings"),
		Desc: "A hook program found by reading the agent's settings (jq '.hooks…command' ~/.claude/settings.json) and then written, emptied, chmod -x'ed, moved or deleted through a variable, a loop or xargs: the guard switched off by the model",
		Match: func(e *Env) string {
			captured, piped := settingsReaders(e)
			if !captured && len(piped) == 0 {
				return ""
			}
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				var files []string
				switch {
				case c.Name == "chmod" && len(c.Pos) > 1 && (strings.Contains(c.Pos[0], "-x") || c.Pos[0] == "000" || c.Pos[0] == "644" || c.Pos[0] == "600"):
					files = c.Pos[1:]
				case c.Name == "chmod" && c.Has("-x"):
					files = c.Pos
				default:
					files = unspelledTargets(c)
				}
				for _, r := range e.F.Redirects {
					if r.Cmd == c.Name && (r.Op == ">" || r.Op == ">|" || r.Op == "&>") {
						files = append(files, r.Target)
					}
				}
				for _, f := range files {
					if derivedFrom(c, f, captured, piped) {
						return c.Name + " changes " + f + ", a program the agent's settings name (a hook): read from its settings, then overwritten or disabled"
					}
				}
			}
			return ""
		},
		Catch: []string{
			`H=$(jq -r '.hooks.PreToolUse[0].hooks[0].command' ~/.claude/settings.json); chmod -x "$H"`,
			`jq -r '.hooks.Stop[].hooks[].command' .claude/settings.local.json | xargs rm -f`,
			`jq -r '.hooks[][].hooks[].command' ~/.claude/settings.json | while read -r f; do : > "$f"; done`,
			`for f in $(jq -r '.hooks[][].hooks[].command' .claude/settings.json); do mv "$f" "$f.off"; done`,
			`HOOK=$(jq -r '.hooks.PreToolUse[0].hooks[0].command' ~/.claude/settings.json | awk '{print $1}'); sed -i '1a exit 0' "$HOOK"`,
		},
		Allow: []string{
			`jq '.hooks' ~/.claude/settings.json | less`,
			`H=$(jq -r '.hooks.PreToolUse[0].hooks[0].command' ~/.claude/settings.json); cat "$H"`,
			`jq -r '.model' ~/.claude/settings.json > /tmp/model.txt`,
			`M=$(jq -r .model ~/.claude/settings.json); echo "$M"`,
			`chmod -x "$SCRIPT"`,
			`M=$(jq -r .model ~/.claude/settings.json); echo "$M" > "$OUT"`,
			`H=$(jq -r '.hooks.Stop[0].hooks[0].command' ~/.claude/settings.json); cp "$H" /tmp/hook-backup.sh`,
		},
	}
}
