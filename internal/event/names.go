// Package event holds the plain types every part of warden shares: the hook
// event names Claude Code knows, the decoded hook input, and the decisions
// handlers return. It has no dependencies beyond the standard library so the
// hook hot path, the store and the CLI can all import it cheaply.
package event

// Name is a Claude Code hook event name, exactly as it appears in
// hook_event_name and as a key under "hooks" in settings.json.
type Name string

// The 33 events of Claude Code 2.1.330 (claude-code-hooks.md §2.2).
const (
	PreToolUse          Name = "PreToolUse"
	PostToolUse         Name = "PostToolUse"
	PostToolUseFailure  Name = "PostToolUseFailure"
	PostToolBatch       Name = "PostToolBatch"
	Notification        Name = "Notification"
	UserPromptSubmit    Name = "UserPromptSubmit"
	UserPromptExpansion Name = "UserPromptExpansion"
	SessionStart        Name = "SessionStart"
	SessionEnd          Name = "SessionEnd"
	Stop                Name = "Stop"
	StopFailure         Name = "StopFailure"
	SubagentStart       Name = "SubagentStart"
	SubagentStop        Name = "SubagentStop"
	PreCompact          Name = "PreCompact"
	PostCompact         Name = "PostCompact"
	PreModelSwitch      Name = "PreModelSwitch"
	PostModelSwitch     Name = "PostModelSwitch"
	PermissionRequest   Name = "PermissionRequest"
	PermissionDenied    Name = "PermissionDenied"
	Setup               Name = "Setup"
	TeammateIdle        Name = "TeammateIdle"
	TaskCreated         Name = "TaskCreated"
	TaskCompleted       Name = "TaskCompleted"
	Elicitation         Name = "Elicitation"
	ElicitationResult   Name = "ElicitationResult"
	ConfigChange        Name = "ConfigChange"
	WorktreeCreate      Name = "WorktreeCreate"
	WorktreeRemove      Name = "WorktreeRemove"
	InstructionsLoaded  Name = "InstructionsLoaded"
	CwdChanged          Name = "CwdChanged"
	FileChanged         Name = "FileChanged"
	DirectoryAdded      Name = "DirectoryAdded"
	MessageDisplay      Name = "MessageDisplay"
)

// All lists every known event in the order of the reference catalogue.
var All = []Name{
	PreToolUse, PostToolUse, PostToolUseFailure, PostToolBatch, Notification,
	UserPromptSubmit, UserPromptExpansion, SessionStart, SessionEnd, Stop,
	StopFailure, SubagentStart, SubagentStop, PreCompact, PostCompact,
	PreModelSwitch, PostModelSwitch, PermissionRequest, PermissionDenied, Setup,
	TeammateIdle, TaskCreated, TaskCompleted, Elicitation, ElicitationResult,
	ConfigChange, WorktreeCreate, WorktreeRemove, InstructionsLoaded, CwdChanged,
	FileChanged, DirectoryAdded, MessageDisplay,
}

var known = func() map[Name]bool {
	m := make(map[Name]bool, len(All))
	for _, n := range All {
		m[n] = true
	}
	return m
}()

// Known reports whether n is one of the 33 events of Claude Code 2.1.330.
// Unknown events are still recorded and allowed; this only tells them apart.
func Known(n Name) bool { return known[n] }
