// Package lifecycle carries context across Claude Code sessions: the state
// files under <project>/.warden/state (last-session.json,
// pre-compact-state.json, learn-pending, pending-resume.json), the
// SessionStart briefing built from them, session and agent handoffs under
// <project>/.warden/handoffs, the project templates `warden init` writes,
// and small git helpers that never take longer than their timeout.
//
// It is imported by the hook handlers, so it stays light: standard library
// only, nothing computed at package init.
package lifecycle
