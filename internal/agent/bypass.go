package agent

// With --permission-mode bypassPermissions, Claude Code (2.1.330) first
// shows a one-time warning ("WARNING: Claude Code running in Bypass
// Permissions mode … No, exit / Yes, I accept") that nobody at an agent's
// window answers. It skips the warning when the setting
// skipDangerousModePermissionPrompt is true in the user's, the project's
// local, the managed or the command line's settings (--settings, its
// "flagSettings"); the older bypassPermissionsModeAccepted key in
// ~/.claude.json is migrated into the user's settings.json. warden
// passes it on the agent's command line only, as it pre-accepts folder
// trust for the worktree only: the user's own sessions still get the
// warning, and nothing in their config changes.

// BypassPermissions is Claude Code's permission mode that runs every tool
// call without asking.
const BypassPermissions = "bypassPermissions"

// bypassAccepted is the --settings value that accepts the warning.
const bypassAccepted = `{"skipDangerousModePermissionPrompt":true}`

// PermissionNote says, for task show, how the agent's permissions are
// answered.
func PermissionNote(mode, agentMode string) string {
	if agentMode == ModeCommand {
		return "the agent command's own (warden's policy applies where its hooks call warden)"
	}
	if IsCLIMode(agentMode) {
		return "warden's policy answers every tool call through its " + agentMode + " hooks (a call it would ask about is denied: the CLI runs headless)"
	}
	switch mode {
	case BypassPermissions:
		return "bypassPermissions: Claude Code asks nothing; its one-time bypass warning was accepted by warden for this agent (--settings skipDangerousModePermissionPrompt); warden's policy still denies and asks"
	case "":
		return "warden's policy answers every tool call (allow, deny, or ask: the task waits for a person); Claude Code's default mode"
	}
	return "warden's policy answers every tool call; Claude Code's --permission-mode " + mode
}
