package policy

import (
	"fmt"
	"slices"
	"strings"
)

// The operations a task may deny its agent (internal/task.DenyOps): rules
// added to the agent pack only for a task that denies them, so every other
// agent runs as before.

// netCommands reach the network whatever their arguments.
var netCommands = []string{"curl", "wget", "fetch", "http", "https", "aria2c", "xh", "lynx", "nc", "ncat", "socat",
	"ssh", "scp", "sftp", "telnet", "ftp", "rsync"}

// netSubcommands are the subcommands of tools that otherwise work locally
// which download or upload.
var netSubcommands = map[string][]string{
	"git":   {"clone", "fetch", "pull", "push", "ls-remote", "remote", "submodule"},
	"npm":   {"install", "i", "ci", "add", "update", "publish"},
	"pnpm":  {"install", "i", "add", "update", "publish"},
	"yarn":  {"install", "add", "upgrade", "publish"},
	"pip":   {"install", "download"},
	"pip3":  {"install", "download"},
	"go":    {"get", "install", "mod"},
	"cargo": {"install", "fetch", "add", "update", "publish"},
	"gh":    {"api", "pr", "issue", "repo", "release", "run", "workflow"},
}

// webTools are Claude Code's own tools that reach the network.
var webTools = []string{"WebFetch", "WebSearch"}

// agentDenyRules are the rules for the operations t denies.
func agentDenyRules(t *AgentTask) []Rule {
	why := func(op, what string) string {
		return fmt.Sprintf("%s: task %s denies its agent %s (deny = [%q])", what, t.ID, op, op)
	}
	var rs []Rule
	if t.denies("network") {
		names := append(append([]string(nil), netCommands...), mapKeys(netSubcommands)...)
		rs = append(rs, cmdRule("core.agent:deny-network", Deny, "Commands that reach the network, for a task that denies network", names,
			func(e *Env, c *Cmd) string {
				if subs, ok := netSubcommands[c.Name]; ok {
					if s := sub(c); slices.Contains(subs, s) && !localSubcommand(c, s) {
						return why("network", c.Name+" "+s)
					}
					return ""
				}
				return why("network", c.Name)
			},
			[]string{"curl https://example.com", "git fetch origin", "npm install left-pad", "ssh host uptime", "bash -c 'wget -q x.io/f'", "go mod download"},
			[]string{"git status", "npm test", "go build ./...", "go mod tidy -e", "echo curl", "git remote -v", "git submodule status"}),
			Rule{ID: "core.agent:deny-network-web", Mode: Deny, Desc: "WebFetch and WebSearch, for a task that denies network", Tools: webTools,
				Match: func(e *Env) string { return why("network", e.F.Tool) },
				Catch: []string{`{"tool_name":"WebFetch","tool_input":{"url":"https://example.com","prompt":"x"}}`,
					`{"tool_name":"WebSearch","tool_input":{"query":"go generics"}}`,
					`{"tool_name":"WebFetch","tool_input":{"url":"http://localhost:8080"}}`},
				Allow: []string{`{"tool_name":"Read","tool_input":{"file_path":"/home/dev/proj/a.go"}}`, "ls",
					`{"tool_name":"Grep","tool_input":{"pattern":"http"}}`}})
	}
	if t.denies("commit") {
		rs = append(rs, cmdRule("core.agent:deny-commit", Deny, "git commit, for a task that denies commit", []string{"git"},
			func(e *Env, c *Cmd) string {
				if s := sub(c); s == "commit" || s == "commit-tree" || s == "am" || s == "cherry-pick" || s == "revert" && !c.Has("--no-commit", "-n") {
					return why("commit", "git "+s)
				}
				return ""
			},
			[]string{"git commit -m x", "git -C . commit --amend", "sh -c 'git commit -qam wip'", "git cherry-pick abc"},
			[]string{"git status", "git diff", "git add a.go", "git log --grep commit"}))
	}
	if t.denies("write") {
		rs = append(rs, Rule{ID: "core.agent:deny-write", Mode: Deny,
			Desc: "Every write and delete outside the temporary directory, for a task that denies write (read-only)",
			Match: func(e *Env) string {
				for _, p := range writes(e.F) {
					if slices.ContainsFunc(t.Temp, func(d string) bool { return under(p.Path, d) }) {
						continue
					}
					return why("write", fmt.Sprintf("%s %s %s", p.Via, opVerb(p.Op), p.Path))
				}
				return ""
			},
			Catch: []string{"echo x > out.txt", "rm -rf build",
				`{"tool_name":"Write","tool_input":{"file_path":"/home/dev/proj/a.go","content":"x"}}`,
				`{"tool_name":"Edit","tool_input":{"file_path":"/home/dev/proj/a.go","old_string":"a","new_string":"b"}}`},
			Allow: []string{"cat README.md", "go test ./... > /tmp/log 2>&1", "grep -r x .",
				`{"tool_name":"Read","tool_input":{"file_path":"/home/dev/proj/a.go"}}`}})
	}
	return rs
}

// localSubcommand: the subcommands of netSubcommands whose own
// subcommand decides (go mod download, git remote update, git submodule
// update reach the network; go mod tidy, git remote -v do not).
func localSubcommand(c *Cmd, s string) bool {
	switch c.Name + " " + s {
	case "go mod":
		return c.Sub(1) != "download"
	case "git remote":
		return !slices.Contains([]string{"update", "prune", "show"}, c.Sub(1))
	case "git submodule":
		return !slices.Contains([]string{"update", "add", "sync"}, c.Sub(1))
	}
	return false
}

func (t *AgentTask) denies(op string) bool { return slices.Contains(t.Deny, op) }

func mapKeys(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// agentDenyDesc is the pack description's part for the denied operations.
func agentDenyDesc(t *AgentTask) string {
	if len(t.Deny) == 0 {
		return ""
	}
	return "; this task also denies " + strings.Join(t.Deny, ", ")
}
