package callfacts

import (
	"strings"

	"github.com/warden-dev/warden/internal/lazyre"
)

// Change reports whether the call changes files or repository state, and
// why — the question of the gates that deny or count changes (safemode,
// mutation tracking, the research and startup gates). It is answered
// from the same facts the policy reads: every command behind wrappers,
// payloads and pipes, each with its effect. A command that does not parse,
// or whose reading stopped at its bounds, counts as a change: a gate that
// a syntax error or a deep nesting could dodge would be no gate.
func (f *Facts) Change() (string, bool) {
	switch f.Tool {
	case "Edit", "Write", "MultiEdit", "NotebookEdit":
		return f.Tool, true
	case "Bash", "PowerShell":
		return f.commandChange()
	}
	if strings.HasPrefix(f.Tool, "mcp__") && mcpWriteTool.MatchString(f.Tool) {
		return f.Tool + " (an MCP tool that writes)", true
	}
	return "", false
}

// mcpWriteTool matches MCP tools whose name says they change something
// (filesystem servers' write_file, edit_file, move_file, GitHub's
// create_or_update_file, push_files…).
var mcpWriteTool = lazyre.New(`(?i)__[a-z0-9_]*(write|edit|create|delete|remove|move|rename|update|patch|push|commit|upload|put|insert|drop|apply|replace|set)[a-z0-9_]*$`)

func (f *Facts) commandChange() (string, bool) {
	if f.ParseError != "" {
		return "the command does not parse (" + f.ParseError + "), so it is treated as a change", true
	}
	if f.Truncated {
		return "the command nests deeper than warden reads, so it is treated as a change", true
	}
	for i := range f.Commands {
		if c := &f.Commands[i]; c.Effect != EffectNone {
			return c.EffectWhy(), true
		}
	}
	for _, p := range f.Paths {
		if (p.Op == OpWrite || p.Op == OpDelete) && !deviceFile(p.Path) {
			return "writes to " + p.Path, true
		}
	}
	return "", false
}

// deviceFile reports whether writing p changes no file: the terminal and
// the process's own streams.
func deviceFile(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/full", "/dev/zero": // writes vanish or fail
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/")
}
