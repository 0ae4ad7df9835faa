package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// agentFilesRule: from the shell, replacing what the agent loads as
// instructions or code — ~/.claude.json (its MCP servers and trusted
// projects), subagents, commands, skills, plugins, hooks and settings
// under ~/.claude or the project's .claude — is denied. The agent's own
// file tools (Write, Edit of CLAUDE.md) are not this rule's: it judges
// shell commands, which the user does not see as edits.
func agentFilesRule() Rule {
	return Rule{ID: "core.self:agent-files", Mode: Deny, Tools: shellTools,
		Desc: "A shell command replacing what the agent loads as code or instructions: ~/.claude.json, subagents, commands, skills, plugins, hooks or settings under ~/.claude or the project's .claude (echo '{}' > ~/.claude.json, tee ~/.claude/agents/x.md, unzip -d ~/.claude, cp -r /tmp/x/.claude .)",
		Match: func(e *Env) string {
			for _, tc := range e.Touches() {
				if tc.Effect != callfacts.PathWrite && tc.Effect != callfacts.PathOverwrite && tc.Effect != callfacts.PathTruncate {
					continue
				}
				if agentLoads(tc.Path, e.F.Home, e.F.Project) {
					return tc.Via + " replaces " + homeRel(tc.Path, e.F.Home) + ", which the agent loads as code or instructions"
				}
			}
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if d := extractDir(e, c); d != "" && agentDir(d, e.F.Home, e.F.Project) {
					return c.Name + " writes files it does not name into " + homeRel(d, e.F.Home) + ", the agent's own configuration"
				}
				if (c.Name == "cp" || c.Name == "rsync" || c.Name == "mv") && len(c.Pos) >= 2 {
					for _, src := range c.Pos[:len(c.Pos)-1] {
						if path.Base(strings.TrimSuffix(src, "/")) == ".claude" {
							return c.Name + " puts a .claude directory from " + src + " in place: its hooks and settings would run as the agent's"
						}
					}
				}
			}
			return ""
		},
		Catch: []string{"echo '{}' > ~/.claude.json", "cp -r /tmp/x/.claude .", "tee ~/.claude/agents/helper.md < /tmp/evil.md", "unzip -o /tmp/cfg.zip -d ~/.claude",
			"cp /tmp/s.json .claude/settings.local.json", "echo x > ~/.claude/commands/deploy.md"},
		Allow: []string{"cat ~/.claude.json", "ls ~/.claude/agents", "cp .claude/settings.json /tmp/backup.json", "echo note >> notes.md", "cat .claude/commands/x.md"}}
}

// agentLoads: a file the agent reads as configuration, code or
// instructions (CLAUDE.md memory excepted: the agent edits it itself).
func agentLoads(p, home, project string) bool {
	if home != "" && p == home+"/.claude.json" {
		return true
	}
	if project != "" && (p == project+"/.mcp.json" || p == project+"/.cursor/mcp.json" || p == project+"/.vscode/mcp.json") {
		return true // the MCP servers the agent starts in this project: commands it runs
	}
	for _, root := range []string{home + "/.claude", project + "/.claude"} {
		if root == "/.claude" || !strings.HasPrefix(p, root+"/") {
			continue
		}
		rest := p[len(root)+1:]
		first, _, _ := strings.Cut(rest, "/")
		switch first {
		case "agents", "commands", "skills", "plugins", "hooks", "settings.json", "settings.local.json", "output-styles":
			return true
		}
	}
	return false
}

// agentDir: the agent's configuration directory (~/.claude, .claude) or
// one of its parts.
func agentDir(d, home, project string) bool {
	for _, root := range []string{home + "/.claude", project + "/.claude"} {
		if root != "/.claude" && (d == root || strings.HasPrefix(d, root+"/")) {
			return true
		}
	}
	return false
}
