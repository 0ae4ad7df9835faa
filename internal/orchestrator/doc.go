// Package orchestrator runs tasks on the user's behalf inside `warden
// serve`: a scheduler that claims queued tasks when a slot is free and the
// account's pacing allows new work, holds everything (and tells running
// agents to pause through their hooks) while a quota window is critical,
// reconciles what a crashed daemon left behind, and is watched by a
// watchdog that restarts a stalled loop. Agents are started through the
// agent.Runner interface; the runners themselves (headless `claude -p`,
// the tmux/worktree agents) live together in internal/agent.
//
// The task model and the store contract live in internal/task, which
// the store implementation links without pulling this package in.
//
// Nothing here reads the process environment or working directory after
// start-up: the daemon's hook server swaps both per hook (until it carries
// them as values), so everything a runner needs is captured in Options.
package orchestrator

import "github.com/warden-dev/warden/internal/task"

// Task is the task model (see package task).
type Task = task.Task

// Status is a task's status (see package task).
type Status = task.Status
