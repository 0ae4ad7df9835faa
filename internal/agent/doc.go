// Package agent runs one coding agent per task: a git worktree of its own
// on branch warden/<task>, the agent (Claude Code by default) in a window
// of the tmux session "warden", and its state taken from the agent's own
// warden hooks — every event they record carries the task id from
// WARDEN_TASK_ID — never from what the terminal shows. Pane captures feed
// only `warden agent logs`.
//
// Files, one purpose each:
//
//   - taskid.go    which task ids are safe as branch, directory and window names
//   - git.go       running git with a deadline and a clear error
//   - worktree.go  creating a task's worktree (all or nothing)
//   - archive.go   saving uncommitted changes to <task>.tar.gz
//   - cleanup.go   archive, remove, prune; the branch stays
//   - trust.go     pre-accepting Claude Code's folder-trust dialog for one worktree
//   - tmux.go      the tmux driver (exact-match targets, one window per task)
//   - launch.go    the agent's argv: interactive, headless or a command template
//   - memlimit.go  how agents get a memory limit here: systemd scope, own cgroup or none
//   - cgroup.go    the memory cgroups warden makes itself (v2 or v1), their OOM kills
//   - cgroup_proc.go  reading /proc about cgroup mounts, a process's cgroups, total memory
//   - state.go     the agent's state machine over its hook events
//   - notify.go    which Notification types mean the agent waits for a person
//   - pending.go   the tool call an agent waits on a person for (the policy asked)
//   - bypass.go    accepting Claude Code's bypassPermissions warning for one agent
//   - why.go       what a failed agent last said, and the next step
//   - answer.go    approve or deny a waiting agent's pending call in its window
//   - diff.go      what a task's branch holds against its base
//   - always.go    approving a call always for the task: the allowance its hooks read
//   - reply.go     a person's reply typed into a running agent's prompt
//   - followup.go  a finished task's follow-up run on its branch
//   - merge.go     merging a branch into its base, refused before anything changes
//   - pr.go        pushing a branch and opening a pull request with gh
//   - merge_task.go  merge or pull request for a task's finished agent
//   - runner.go    the scheduler's Runner and Run interfaces, every runner's contract
//   - runner_tmux.go  TmuxRunner: tasks as the agents above, their states mirrored into the task
//   - runner_headless.go  Headless: `claude -p` in the project directory, no worktree or tmux
//   - runner_headless_proc_*.go, runner_headless_orphans_*.go  its process group and stray processes
package agent
