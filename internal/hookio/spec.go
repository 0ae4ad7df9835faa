// Package hookio is the Claude Code hook protocol as data and pure functions:
// what each event accepts, how long warden may take on it, and how a decision
// is written out (claude-code-hooks.md §3). It does no I/O of its own.
package hookio

import (
	"time"

	"github.com/warden-dev/warden/internal/event"
)

// BlockStyle is how an event expresses "no" to Claude Code.
type BlockStyle int

const (
	// NoBlock: the event cannot be blocked; a deny becomes a notice.
	NoBlock BlockStyle = iota
	// PermissionDecision: hookSpecificOutput.permissionDecision deny|ask
	// (PreToolUse, PreModelSwitch).
	PermissionDecision
	// PermissionBehavior: hookSpecificOutput.decision.behavior = "deny"
	// (PermissionRequest, where exit 2 is ignored).
	PermissionBehavior
	// TopLevelDecision: {"decision":"block","reason":…}.
	TopLevelDecision
	// ExitTwo: exit 2 with the reason on stderr, the only form the event
	// documents for blocking.
	ExitTwo
)

// Spec is what warden knows about one event.
type Spec struct {
	// Timeout is the `timeout` (seconds) warden registers for the event.
	Timeout int
	// Block is how a deny is written.
	Block BlockStyle
	// Context: the event takes hookSpecificOutput.additionalContext.
	Context bool
	// SystemMessage: Claude Code shows a top-level systemMessage to the user
	// (some events discard it, so warden does not write it there).
	SystemMessage bool
	// Install: registered by `warden install` by default.
	Install bool
}

// Budget is warden's own total deadline for an event: comfortably inside the
// registered timeout so Claude Code never has to kill the hook.
func (s Spec) Budget() time.Duration {
	t := time.Duration(s.Timeout) * time.Second
	margin := t / 5
	if margin > 5*time.Second {
		margin = 5 * time.Second
	}
	if margin < 500*time.Millisecond {
		margin = 500 * time.Millisecond
	}
	return t - margin
}

// The registered timeouts. PostToolUse is long because pacing sleeps there;
// PreToolUse, Stop and PermissionRequest leave room for LLM judges;
// UserPromptSubmit stays within Claude Code's own 30 s cap for that event.
var specs = map[event.Name]Spec{
	event.PreToolUse:          {Timeout: 60, Block: PermissionDecision, Context: true, SystemMessage: true, Install: true},
	event.PostToolUse:         {Timeout: 360, Block: TopLevelDecision, Context: true, SystemMessage: true, Install: true},
	event.PostToolUseFailure:  {Timeout: 30, Block: TopLevelDecision, Context: true, SystemMessage: true, Install: true},
	event.PostToolBatch:       {Timeout: 30, Block: TopLevelDecision, Context: true, SystemMessage: true, Install: true},
	event.Notification:        {Timeout: 10, Block: NoBlock, Context: true, Install: true},
	event.UserPromptSubmit:    {Timeout: 30, Block: TopLevelDecision, Context: true, SystemMessage: true, Install: true},
	event.UserPromptExpansion: {Timeout: 30, Block: TopLevelDecision, Context: true, SystemMessage: true, Install: true},
	event.SessionStart:        {Timeout: 30, Block: NoBlock, Context: true, SystemMessage: true, Install: true},
	event.SessionEnd:          {Timeout: 10, Block: NoBlock, Install: true},
	event.Stop:                {Timeout: 120, Block: TopLevelDecision, Context: true, SystemMessage: true, Install: true},
	event.StopFailure:         {Timeout: 10, Block: NoBlock, Install: true},
	event.SubagentStart:       {Timeout: 30, Block: NoBlock, Context: true, SystemMessage: true, Install: true},
	event.SubagentStop:        {Timeout: 120, Block: TopLevelDecision, Context: true, SystemMessage: true, Install: true},
	event.PreCompact:          {Timeout: 30, Block: TopLevelDecision, Install: true},
	event.PostCompact:         {Timeout: 30, Block: NoBlock, Install: true},
	event.PreModelSwitch:      {Timeout: 10, Block: PermissionDecision, SystemMessage: true, Install: true},
	event.PostModelSwitch:     {Timeout: 10, Block: NoBlock, Context: true, SystemMessage: true, Install: true},
	event.PermissionRequest:   {Timeout: 60, Block: PermissionBehavior, SystemMessage: true, Install: true},
	event.PermissionDenied:    {Timeout: 10, Block: NoBlock, SystemMessage: true, Install: true},
	event.Setup:               {Timeout: 30, Block: NoBlock, Context: true, SystemMessage: true, Install: true},
	event.TeammateIdle:        {Timeout: 30, Block: ExitTwo, SystemMessage: true, Install: true},
	event.TaskCreated:         {Timeout: 30, Block: TopLevelDecision, SystemMessage: true, Install: true},
	event.TaskCompleted:       {Timeout: 30, Block: ExitTwo, SystemMessage: true, Install: true},
	event.Elicitation:         {Timeout: 30, Block: ExitTwo, SystemMessage: true, Install: true},
	event.ElicitationResult:   {Timeout: 30, Block: ExitTwo, SystemMessage: true, Install: true},
	event.ConfigChange:        {Timeout: 10, Block: TopLevelDecision, Install: true},
	event.WorktreeCreate:      {Timeout: 30, Block: ExitTwo, Install: true},
	event.WorktreeRemove:      {Timeout: 30, Block: NoBlock, Install: true},
	event.InstructionsLoaded:  {Timeout: 10, Block: NoBlock, Install: true},
	event.CwdChanged:          {Timeout: 10, Block: NoBlock, SystemMessage: true, Install: true},
	event.FileChanged:         {Timeout: 10, Block: NoBlock, SystemMessage: true, Install: true},
	event.DirectoryAdded:      {Timeout: 10, Block: NoBlock, Install: true},
	// MessageDisplay fires for every streamed text delta: a process per
	// delta would slow the UI for nothing warden needs, so it is known but
	// not registered by default.
	event.MessageDisplay: {Timeout: 10, Block: NoBlock, Install: false},
}

// unknownSpec applies to events newer than warden: record and allow.
var unknownSpec = Spec{Timeout: 10, Block: NoBlock}

// SpecFor returns the protocol facts for an event (a safe default for an
// unknown one).
func SpecFor(n event.Name) Spec {
	if s, ok := specs[n]; ok {
		return s
	}
	return unknownSpec
}

// Installed lists the events `warden install` registers, in catalogue order.
func Installed() []event.Name {
	var out []event.Name
	for _, n := range event.All {
		if specs[n].Install {
			out = append(out, n)
		}
	}
	return out
}
