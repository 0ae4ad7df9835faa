package policy

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// AgentTask is the task whose agent makes the call: warden runs each task's
// agent in a git worktree of its own on branch warden/<task>
// (internal/agent) with WARDEN_TASK_ID set, and the agent pack keeps the
// agent inside it.
type AgentTask struct {
	ID       string
	Worktree string // the agent's worktree (its project directory)
	Branch   string // warden/<task>
	// Allow lists guarded operations the task may run anyway: push, fetch,
	// pull, checkout, rebase, merge, worktree-remove.
	Allow []string
	// Deny lists operations agents may run that this task may not:
	// network, commit, write (pack_agent_deny.go).
	Deny []string
	// Temp are directories outside the worktree an agent may still write
	// (the system's temporary directory: compilers and test runners use it).
	Temp []string
}

func (t *AgentTask) allows(op string) bool { return slices.Contains(t.Allow, op) }

// AgentPack is the guard active only in warden's agents (the hook adds it
// when WARDEN_TASK_ID is set): an unattended agent must not publish, pull
// in others' work, leave its branch, rewrite history or touch files beyond
// its worktree — each a decision for the user when the task ends.
func AgentPack(t AgentTask) Pack {
	if t.Branch == "" {
		t.Branch = "warden/" + t.ID
	}
	if t.Temp == nil {
		t.Temp = []string{"/tmp", "/var/tmp", "/dev"}
		if d := os.Getenv("TMPDIR"); d != "" {
			t.Temp = append(t.Temp, filepath.Clean(d))
		}
	}
	gitOp := func(id, op, desc string, match func(e *Env, c *Cmd) string, catch, allow []string) Rule {
		return cmdRule("core.agent:"+id, Deny, desc, []string{"git"}, func(e *Env, c *Cmd) string {
			if t.allows(op) {
				return ""
			}
			if why := match(e, c); why != "" {
				return fmt.Sprintf("%s: task %s runs on %s in its own worktree; the user decides this when the task ends (allow it for the task with allow = [%q])",
					why, t.ID, t.Branch, op)
			}
			return ""
		}, catch, allow)
	}
	subIs := func(names ...string) func(e *Env, c *Cmd) string {
		return func(e *Env, c *Cmd) string {
			if s := sub(c); slices.Contains(names, s) {
				return "git " + s
			}
			return ""
		}
	}
	return Pack{Name: "core.agent", Desc: "warden agents (WARDEN_TASK_ID): no push, fetch, pull, branch switch, rebase, merge or worktree removal unless the task allows it; no writes outside the worktree" + agentDenyDesc(&t), Rules: append([]Rule{
		gitOp("git-push", "push", "git push from an agent", subIs("push"),
			[]string{"git push", "git push -u origin warden/t1", "cd x && git -C . push --force", "bash -c 'git push'"},
			[]string{"git status", "git log origin/main", "echo git push", "git commit -m push"}),
		gitOp("git-fetch", "fetch", "git fetch from an agent", subIs("fetch", "remote"),
			[]string{"git fetch", "git fetch origin main", "git remote update", "git remote add x https://example.com/x"},
			[]string{"git log", "git diff HEAD", "echo fetch", "git show HEAD:remote.go"}),
		gitOp("git-pull", "pull", "git pull from an agent", subIs("pull"),
			[]string{"git pull", "git pull --rebase origin main", "sh -c 'git pull'"},
			[]string{"git add pull.go", "git log --grep pull", "echo git pull"}),
		gitOp("git-checkout", "checkout", "git checkout/switch of another branch from an agent", func(e *Env, c *Cmd) string {
			return leavesBranch(e, c, t.Branch)
		},
			[]string{"git checkout main", "git switch main", "git checkout -b other", "git switch -c other", "git checkout --detach HEAD~1"},
			[]string{"git checkout -- main.go", "git checkout .", "git checkout HEAD~1 main.go", "git checkout warden/t1", "git switch warden/t1"}),
		gitOp("git-rebase", "rebase", "git rebase from an agent", subIs("rebase"),
			[]string{"git rebase main", "git rebase -i HEAD~3", "git pull && git rebase --continue"},
			[]string{"git log --oneline", "echo rebase", "git commit -m 'rebase notes'"}),
		gitOp("git-merge", "merge", "git merge from an agent", subIs("merge"),
			[]string{"git merge main", "git merge --no-ff other", "git merge --abort"},
			[]string{"git merge-base HEAD main", "git log --merges", "echo git merge"}),
		gitOp("git-worktree-remove", "worktree-remove", "git worktree remove/prune/move from an agent", func(e *Env, c *Cmd) string {
			if sub(c) == "worktree" && slices.Contains([]string{"remove", "prune", "move"}, c.Sub(1)) {
				return "git worktree " + c.Sub(1)
			}
			return ""
		},
			[]string{"git worktree remove ../x", "git worktree prune", "git worktree move . /tmp/y"},
			[]string{"git worktree list", "git worktree add ../z", "echo git worktree remove"}),
		{
			ID: "core.agent:write-outside", Mode: Deny,
			Desc: "Writes and deletes outside the agent's worktree (the temporary directory excepted)",
			Match: func(e *Env) string {
				for _, p := range writes(e.F) {
					if under(p.Path, t.Worktree) || slices.ContainsFunc(t.Temp, func(d string) bool { return under(p.Path, d) }) {
						continue
					}
					return fmt.Sprintf("%s %s %s, outside the worktree %s of task %s", p.Via, opVerb(p.Op), p.Path, t.Worktree, t.ID)
				}
				return ""
			},
			Catch: []string{"echo x > /home/dev/other/file", "rm -rf /home/dev/proj-other", "touch ~/.bashrc",
				`{"tool_name":"Write","tool_input":{"file_path":"/home/dev/elsewhere/a.go","content":"x"}}`,
				`{"tool_name":"Edit","tool_input":{"file_path":"../up.go","old_string":"a","new_string":"b"}}`},
			Allow: []string{"echo x > out.txt", "rm -rf build", "go test ./... > /tmp/log 2>&1", "cat /etc/hosts > /dev/null",
				`{"tool_name":"Write","tool_input":{"file_path":"/home/dev/proj/a.go","content":"x"}}`},
		},
		// An agent must not answer its own (or another agent's) pending
		// call, approve it always, reply to, merge or stop tasks: those
		// are the person's side of the review loop.
		cmdRule("core.agent:warden-review", Deny, "A task's agent answering, replying to, merging or cancelling tasks (warden task approve|deny|reply|merge|cancel, warden agent kill): a person's decisions", []string{"warden"},
			func(e *Env, c *Cmd) string {
				if len(c.Pos) < 2 {
					return ""
				}
				if c.Pos[0] == "task" && slices.Contains([]string{"approve", "deny", "reply", "merge", "cancel"}, c.Pos[1]) ||
					c.Pos[0] == "agent" && c.Pos[1] == "kill" {
					return fmt.Sprintf("`warden %s %s` from the agent of task %s: answering, replying to, merging or stopping tasks is for a person", c.Pos[0], c.Pos[1], t.ID)
				}
				return ""
			},
			[]string{"warden task approve t2 --always", "~/.warden/bin/warden task deny t1", "warden task merge t1 --pr", "bash -c 'warden task reply t3 go on'", "warden agent kill t2"},
			[]string{"warden task show t1", "warden task diff t1", "warden task list", "echo warden task approve t1", "warden task merge t1 --dry-run"}),
	}, agentDenyRules(&t)...)}
}

// leavesBranch says why a git checkout or switch would leave the task's
// branch; "" for restoring files (checkout -- f, checkout .,
// checkout REV f) and for checking out the task's own branch.
func leavesBranch(e *Env, c *Cmd, own string) string {
	s := sub(c)
	if s != "checkout" && s != "switch" {
		return ""
	}
	if c.Has("-b", "-B", "--orphan", "-c", "-C", "--detach") {
		return "git " + s + " to a new or detached branch"
	}
	if s == "checkout" && slices.Contains(c.Args, "--") {
		return ""
	}
	pos := c.Pos[1:] // after the subcommand
	if s == "checkout" && len(pos) != 1 {
		return "" // no target (a no-op) or REV FILE…: restores files
	}
	if len(pos) == 0 {
		return ""
	}
	target := pos[0]
	if target == own {
		return ""
	}
	if s == "checkout" && (target == "." || strings.HasPrefix(target, "./") || strings.HasPrefix(target, "../")) {
		return "" // a path: restores it
	}
	if s == "checkout" {
		if _, err := os.Lstat(e.abs(c, target)); err == nil {
			return "" // a path: restores it
		}
	}
	return "git " + s + " " + target
}

// agentWorktreeWork reports whether p is a file of an agent's work in a
// worktree under <warden home>/worktrees/<project>/<task>/: the project's
// own files, which the agent is there to change — not warden's (its
// .warden/ directory, with the task's allowed operations, stays warden's,
// and so do the worktrees directory and each worktree's root).
func agentWorktreeWork(p, home string) bool {
	rel, ok := strings.CutPrefix(p, path.Join(home, "worktrees")+"/")
	if !ok {
		return false
	}
	parts := strings.SplitN(rel, "/", 4) // project, task, first component, rest
	return len(parts) >= 3 && parts[2] != ".warden"
}
