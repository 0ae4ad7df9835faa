package harness

import "github.com/warden-dev/warden/internal/event"

// Hook is one event warden registers with a CLI: the CLI's own name for
// it and the Claude Code event whose handlers answer it.
type Hook struct {
	Native string
	Event  event.Name
}

// Hooks are the events `warden install --harness NAME` registers, in the
// CLI's own names. Only events whose answer the CLI honours, or that
// warden records for its audit and pacing, are registered.
func Hooks(h Name) []Hook {
	switch h {
	case Codex:
		// Codex uses Claude Code's names. PermissionRequest fires only
		// where Codex itself would ask; warden's answer is its PreToolUse.
		return []Hook{
			{"SessionStart", event.SessionStart},
			{"UserPromptSubmit", event.UserPromptSubmit},
			{"PreToolUse", event.PreToolUse},
			{"PostToolUse", event.PostToolUse},
			{"Stop", event.Stop},
		}
	case Gemini:
		return []Hook{
			{"SessionStart", event.SessionStart},
			{"BeforeAgent", event.UserPromptSubmit},
			{"BeforeTool", event.PreToolUse},
			{"AfterTool", event.PostToolUse},
			{"AfterAgent", event.Stop},
			{"SessionEnd", event.SessionEnd},
		}
	case Copilot:
		// The camelCase dialect: Copilot's own payload (toolName,
		// toolArgs) and answers. PascalCase names would switch Copilot to
		// Claude Code's payload, which warden reads too (see In).
		return []Hook{
			{"sessionStart", event.SessionStart},
			{"userPromptSubmitted", event.UserPromptSubmit},
			{"preToolUse", event.PreToolUse},
			{"postToolUse", event.PostToolUse},
			{"agentStop", event.Stop},
			{"sessionEnd", event.SessionEnd},
		}
	}
	return nil
}

// nativeEvents are every event name of a CLI warden translates, beyond
// the registered ones (a user may register more by hand).
var nativeEvents = map[Name]map[string]event.Name{
	Gemini: {
		"SessionStart": event.SessionStart, "SessionEnd": event.SessionEnd,
		"BeforeAgent": event.UserPromptSubmit, "AfterAgent": event.Stop,
		"BeforeTool": event.PreToolUse, "AfterTool": event.PostToolUse,
		"PreCompress": event.PreCompact, "Notification": event.Notification,
	},
	Copilot: {
		"sessionStart": event.SessionStart, "sessionEnd": event.SessionEnd,
		"userPromptSubmitted": event.UserPromptSubmit,
		"preToolUse":          event.PreToolUse, "postToolUse": event.PostToolUse,
		"postToolUseFailure": event.PostToolUseFailure,
		"agentStop":          event.Stop, "subagentStart": event.SubagentStart, "subagentStop": event.SubagentStop,
		"preCompact": event.PreCompact, "notification": event.Notification,
	},
}

// EventOf is the Claude Code event for a CLI's event name; a name warden
// does not translate is kept (recorded, and allowed as an unknown event).
func EventOf(h Name, native string) event.Name {
	if ev, ok := nativeEvents[h][native]; ok {
		return ev
	}
	return event.Name(native)
}
